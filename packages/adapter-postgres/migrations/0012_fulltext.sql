-- 1.3: full-text search (`q`) over title and description. unaccent is trusted
-- since PostgreSQL 13, so the database owner may create it.
CREATE EXTENSION IF NOT EXISTS unaccent;--> statement-breakpoint
-- The English Snowball stemmer without its stop words: every word of a query
-- is required (decisions.md), and SQLite's FTS5 drops none, so "for" must
-- match here as it does there.
CREATE TEXT SEARCH DICTIONARY psm_english_stem (TEMPLATE = snowball, LANGUAGE = english);--> statement-breakpoint
-- english's parser with unaccent before the stemmer, so café and cafe are one
-- word. unaccent() as a function is not IMMUTABLE and cannot feed a generated
-- column; as a filtering dictionary inside a configuration it can, since
-- to_tsvector(regconfig, text) is IMMUTABLE.
CREATE TEXT SEARCH CONFIGURATION psm_search (COPY = english);--> statement-breakpoint
ALTER TEXT SEARCH CONFIGURATION psm_search
	ALTER MAPPING FOR asciiword, asciihword, hword_asciipart, word, hword, hword_part
	WITH unaccent, psm_english_stem;--> statement-breakpoint
ALTER TEXT SEARCH CONFIGURATION psm_search
	ALTER MAPPING FOR numword, numhword, hword_numpart WITH unaccent, simple;--> statement-breakpoint
-- Weight A for the title, B for the description: a query with every word
-- weighted A matches the title alone (relevance rank 0). Stored, so the
-- per-row checks of a bounded walk read it instead of parsing the text again;
-- adding it rewrites the table, which fills it for existing rows.
ALTER TABLE "listings" ADD COLUMN "search_vector" tsvector GENERATED ALWAYS AS (
	setweight(to_tsvector('psm_search'::regconfig, "title"), 'A') ||
	setweight(to_tsvector('psm_search'::regconfig, "description"), 'B')
) STORED;--> statement-breakpoint
-- No fast-update pending list, as for the trigram index: a search would scan it linearly.
CREATE INDEX "listings_search_vector_idx" ON "listings" USING gin ("search_vector") WITH (fastupdate = false);--> statement-breakpoint
-- The title's words alone, for relevance rank 0 (every word in the title). A
-- weight in the query (:A) cannot be answered by the index above, which would
-- hand every listing holding the word anywhere to a recheck: for a word common
-- in descriptions and absent from titles, all of them. An expression index, so
-- the rows stay as wide as they are; the titles are short to parse again.
CREATE INDEX "listings_title_vector_idx" ON "listings" USING gin (to_tsvector('psm_search'::regconfig, "title")) WITH (fastupdate = false);--> statement-breakpoint
-- Price sorts: (price, id) within the active listings, or a category and status.
-- Each price sort is the other reversed, so one index serves both.
CREATE INDEX "listings_active_price_idx" ON "listings" USING btree ("price","id") WHERE "listings"."status" between 'active' and 'active';--> statement-breakpoint
CREATE INDEX "listings_category_status_price_idx" ON "listings" USING btree ("category","status","price","id");

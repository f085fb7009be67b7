-- The title's words stored, as search_vector is: a walk newest first (q with
-- common words, relevance rank 0) checks each row by reading them instead of
-- parsing and stemming its title again, 12x less per row at 1M listings
-- (DESIGN.md "Full-text search"). Adding the column rewrites the table, which
-- fills it for existing rows; the GIN index moves from the expression to it.
ALTER TABLE "listings" ADD COLUMN "title_vector" tsvector GENERATED ALWAYS AS (
	to_tsvector('psm_search'::regconfig, "title")
) STORED;--> statement-breakpoint
DROP INDEX IF EXISTS "listings_title_vector_idx";--> statement-breakpoint
CREATE INDEX "listings_title_vector_idx" ON "listings" USING gin ("title_vector") WITH (fastupdate = false);

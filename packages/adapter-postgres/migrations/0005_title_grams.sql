-- Search terms without a trigram (1 or 2 characters, or no 3 letters or digits
-- in a row, like "c++" or "a b"): pg_trgm cannot serve them, so the search
-- looks up these grams of the folded title instead and rechecks with strpos.
-- The grams: every character, every pair, and every triple with a character
-- other than a-z or 0-9 (pg_trgm's trigrams cover the rest of the longer
-- terms). Characters as PostgreSQL counts them in a UTF-8 database, i.e. code
-- points, which is how the repository splits a term (Array.from).
-- Duplicates are left in: GIN indexes each distinct element once.
-- IMMUTABLE because the index stores its results: changing what it returns
-- needs a new function and a REINDEX of listings_title_grams_idx.
CREATE FUNCTION psm_title_grams(folded text) RETURNS text[]
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog
AS $$
DECLARE
  chars text[] := string_to_array(folded, NULL);
  n integer := cardinality(chars);
  plain boolean[] := '{}';
  grams text[] := chars;
  code integer;
BEGIN
  FOR i IN 1..n LOOP
    code := ascii(chars[i]);
    plain[i] := code BETWEEN 97 AND 122 OR code BETWEEN 48 AND 57;
  END LOOP;
  FOR i IN 1..n - 1 LOOP
    grams := grams || (chars[i] || chars[i + 1]);
    IF i < n - 1 AND NOT (plain[i] AND plain[i + 1] AND plain[i + 2]) THEN
      grams := grams || (chars[i] || chars[i + 1] || chars[i + 2]);
    END IF;
  END LOOP;
  RETURN grams;
END
$$;
--> statement-breakpoint
CREATE INDEX "listings_title_grams_idx" ON "listings" USING gin (psm_title_grams("title_folded")) WITH (fastupdate=true,gin_pending_list_limit=256);--> statement-breakpoint
-- No statistics for the index expression: the search's plan does not depend
-- on them (listing-search.ts), and computing the grams of ANALYZE's sample
-- (300,000 rows, as title_folded has STATISTICS 1000) would add ~10 s to
-- every analyze of listings at 1M rows.
ALTER INDEX "listings_title_grams_idx" ALTER COLUMN 1 SET STATISTICS 0;

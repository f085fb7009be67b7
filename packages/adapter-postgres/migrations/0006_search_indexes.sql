-- One index per stored status in place of (status, id DESC, expires_at,
-- title_folded): the same key and entries, but each index's predicate is the
-- range a search pins status to (listing-search-shape.ts writes it with
-- literals), so the planner drops that range from the scan. A walk of the
-- newest listings then compares no status at each entry: two collation-aware
-- text comparisons that took about a fifth of a walk (a term in ~0.2% of
-- titles walks ~12,000 entries at 1M listings). Status stays first in the key,
-- so only these indexes deliver ORDER BY (status, id DESC).
CREATE INDEX "listings_active_id_idx" ON "listings" USING btree ("status","id" DESC NULLS FIRST,"expires_at","title_folded") WHERE "listings"."status" between 'active' and 'active';--> statement-breakpoint
CREATE INDEX "listings_paused_id_idx" ON "listings" USING btree ("status","id" DESC NULLS FIRST,"expires_at","title_folded") WHERE "listings"."status" between 'paused' and 'paused';--> statement-breakpoint
DROP INDEX "listings_status_id_idx";--> statement-breakpoint
-- A finer histogram of titles (2,501 rather than 1,001, from a sample of
-- 750,000 rows rather than 300,000), from which the planner estimates a term's
-- share of titles and chooses between walking the newest listings and the
-- trigram index. With 1,001 titles a term in 0.2% of them was in none after
-- about one ANALYZE in seven (2 in 20 measured at 1M listings), and was then
-- planned onto the trigram index: 8.7 ms rather than ~1.5 ms walking, its
-- trigrams being common ones. With 2,501: 0 in 20; and a rare phrase found in
-- one of those titles is no longer planned as a walk of every row (0.3 s).
-- The cost: ~0.14 ms more planning for every search with a trigram, and
-- ANALYZE of the column ~1 s longer at 1M listings. Analyzed here, so that an
-- existing database plans with the finer histogram at once, not after
-- autovacuum next analyzes the table (~2 s at 1M listings; nothing when empty).
ALTER TABLE "listings" ALTER COLUMN "title_folded" SET STATISTICS 2500;--> statement-breakpoint
ANALYZE "listings" ("title_folded");

-- The status indexes keyed by id alone (their predicate pins the status). With
-- status first in the key, that column had no condition once the planner
-- dropped the predicate's range from the scan, so a cursor's `id < $1` could
-- not start the scan: it read the index from its newest entry to the cursor,
-- ~34 ms for a page 300,000 listings deep at 1M (6,115 buffers), 0.1 ms now.
-- NULLS LAST (id is never null) keeps ORDER BY id DESC NULLS LAST, which the
-- searches on these indexes ask for (listing-search-shape.ts), to these
-- indexes alone: the primary key walked backwards gives NULLS FIRST, so the
-- planner cannot bet on walking it and filtering the status, which reads every
-- newer listing of another status.
-- Dropped and built in the migration's transaction, which holds listings
-- locked against reads and writes until both are built (~1.5 s at 1M listings).
DROP INDEX "listings_active_id_idx";--> statement-breakpoint
DROP INDEX "listings_paused_id_idx";--> statement-breakpoint
CREATE INDEX "listings_active_id_idx" ON "listings" USING btree ("id" DESC NULLS LAST,"expires_at","title_folded") WHERE "listings"."status" between 'active' and 'active';--> statement-breakpoint
CREATE INDEX "listings_paused_id_idx" ON "listings" USING btree ("id" DESC NULLS LAST,"expires_at","title_folded") WHERE "listings"."status" between 'paused' and 'paused';
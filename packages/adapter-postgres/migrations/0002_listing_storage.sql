-- Storage settings drizzle-kit cannot express.
-- View counts change all the time and `views` is in no index: with free room
-- left on each page those updates are HOT, touching no index at all. Vacuum
-- after 5% of rows changed (default 20%) keeps the visibility map fresh, which
-- the index-only walks of search rely on.
ALTER TABLE "listings" SET (fillfactor = 90, autovacuum_vacuum_scale_factor = 0.05);--> statement-breakpoint
-- `LIKE '%term%'` selectivity comes from the column's histogram; a finer one
-- tells a term in 0.2% of titles from a rare one, so the planner can choose
-- between walking the newest-first index and the trigram index.
ALTER TABLE "listings" ALTER COLUMN "title_folded" SET STATISTICS 1000;

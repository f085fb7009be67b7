-- 1.3 prices and units: what a listing's price buys. Every listing stored
-- before is `fixed` (1.0.2 had no unit: a price was the whole job's). A
-- constant default adds the column without rewriting the table (PostgreSQL 11+).
ALTER TABLE "listings" ADD COLUMN "price_unit" text DEFAULT 'fixed' NOT NULL;
--> statement-breakpoint
ALTER TABLE "listings" ADD CONSTRAINT "listings_price_unit_check" CHECK ("listings"."price_unit" in ('fixed', 'hour', 'day', 'month'));

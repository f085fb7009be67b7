-- 1.3 prices and units: what a listing's price buys. Every listing stored
-- before is `fixed` (1.0.2 had no unit: a price was the whole job's). A
-- column added with a CHECK is checked against the existing rows, which the
-- default satisfies.
ALTER TABLE `listings` ADD `price_unit` text DEFAULT 'fixed' NOT NULL CONSTRAINT "listings_price_unit_check" CHECK(`price_unit` IN ('fixed', 'hour', 'day', 'month'));

-- saved_search_matches without a rowid: its primary key (saved search, listing)
-- is the table itself, so recording a match writes one b-tree rather than the
-- rowid table and the key's separate index. Matching a new listing against
-- 100,000 saved searches writes dozens of these rows, and this was a quarter
-- of the round's time. The table is rebuilt (create, copy, drop, rename,
-- recreate the index) inside the migrator's one transaction; no table
-- references it.
CREATE TABLE `__new_saved_search_matches` (
	`saved_search_id` text NOT NULL,
	`listing_id` text NOT NULL,
	`matched_at` integer NOT NULL,
	`mailed_at` integer,
	PRIMARY KEY(`saved_search_id`, `listing_id`),
	FOREIGN KEY (`saved_search_id`) REFERENCES `saved_searches`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_saved_search_matches`("saved_search_id", "listing_id", "matched_at", "mailed_at") SELECT "saved_search_id", "listing_id", "matched_at", "mailed_at" FROM `saved_search_matches`;
--> statement-breakpoint
DROP TABLE `saved_search_matches`;
--> statement-breakpoint
ALTER TABLE `__new_saved_search_matches` RENAME TO `saved_search_matches`;
--> statement-breakpoint
-- A mail's new matches of one saved search, oldest first, in one seek.
CREATE INDEX `saved_search_matches_unmailed_idx` ON `saved_search_matches` (`saved_search_id`,`matched_at`) WHERE "saved_search_matches"."mailed_at" IS NULL;

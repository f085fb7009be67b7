-- 1.3 saved searches: `saved_searches` (indexed by `match_key`, core's
-- savedSearchMatchKey, so matching a new listing looks up only its
-- candidates), `saved_search_matches` (each listing told to a saved search's
-- owner once) and `saved_search_cursor`, the one row holding the seq of the
-- last event matched. The cursor starts at the log's last seq, as
-- notification_cursor did: an existing database does not match its history.
CREATE TABLE `saved_searches` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`q` text,
	`search` text,
	`category` text,
	`min_price` real,
	`max_price` real,
	`match_key` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "saved_searches_category_check" CHECK("saved_searches"."category" IS NULL OR "saved_searches"."category" IN ('strategic-consulting', 'software-development', 'digital-marketing', 'ux-ui-design', 'staffing-hr', 'data-analytics', 'cybersecurity', 'artificial-intelligence', 'legal-consulting', 'financial-services'))
);
--> statement-breakpoint
CREATE INDEX `saved_searches_user_id_id_idx` ON `saved_searches` (`user_id`,`id`);
--> statement-breakpoint
CREATE INDEX `saved_searches_match_key_idx` ON `saved_searches` (`match_key`);
--> statement-breakpoint
CREATE TABLE `saved_search_matches` (
	`saved_search_id` text NOT NULL,
	`listing_id` text NOT NULL,
	`matched_at` integer NOT NULL,
	PRIMARY KEY(`saved_search_id`, `listing_id`),
	FOREIGN KEY (`saved_search_id`) REFERENCES `saved_searches`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `saved_search_cursor` (
	`id` integer PRIMARY KEY NOT NULL,
	`last_seq` integer NOT NULL,
	CONSTRAINT "saved_search_cursor_one_row_check" CHECK("saved_search_cursor"."id" = 1)
);
--> statement-breakpoint
INSERT INTO `saved_search_cursor` (`id`, `last_seq`) VALUES (1, max(
	coalesce((SELECT `seq` FROM `sqlite_sequence` WHERE `name` = 'events'), 0),
	coalesce((SELECT max(`seq`) FROM `events`), 0)
));

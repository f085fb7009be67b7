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
	`mailed_at` integer,
	PRIMARY KEY(`saved_search_id`, `listing_id`),
	FOREIGN KEY (`saved_search_id`) REFERENCES `saved_searches`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- A mail's new matches of one saved search, oldest first, in one seek.
CREATE INDEX `saved_search_matches_unmailed_idx` ON `saved_search_matches` (`saved_search_id`,`matched_at`) WHERE "saved_search_matches"."mailed_at" IS NULL;
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
--> statement-breakpoint
-- mail_jobs gains the kind `saved_search_matched`. SQLite cannot alter a
-- CHECK, so the table is rebuilt as in 0011 (create, copy every row, drop,
-- rename, recreate the indexes) inside the migrator's one transaction.
CREATE TABLE `__new_mail_jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`ref` text,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`last_error` text,
	`created_at` integer NOT NULL,
	`sent_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "mail_jobs_kind_check" CHECK("__new_mail_jobs"."kind" IN ('password_reset', 'email_verification', 'webhook_disabled', 'message_received', 'saved_search_matched')),
	CONSTRAINT "mail_jobs_status_check" CHECK("__new_mail_jobs"."status" IN ('pending', 'sent', 'failed')),
	CONSTRAINT "mail_jobs_attempts_check" CHECK("__new_mail_jobs"."attempts" >= 0)
);
--> statement-breakpoint
INSERT INTO `__new_mail_jobs`("id", "user_id", "kind", "ref", "status", "attempts", "next_attempt_at", "last_error", "created_at", "sent_at") SELECT "id", "user_id", "kind", "ref", "status", "attempts", "next_attempt_at", "last_error", "created_at", "sent_at" FROM `mail_jobs`;
--> statement-breakpoint
DROP TABLE `mail_jobs`;
--> statement-breakpoint
ALTER TABLE `__new_mail_jobs` RENAME TO `mail_jobs`;
--> statement-breakpoint
CREATE INDEX `mail_jobs_status_next_attempt_at_id_idx` ON `mail_jobs` (`status`,`next_attempt_at`,`id`);
--> statement-breakpoint
CREATE INDEX `mail_jobs_user_id_kind_created_at_idx` ON `mail_jobs` (`user_id`,`kind`,`created_at`);
--> statement-breakpoint
CREATE INDEX `mail_jobs_user_id_kind_ref_created_at_idx` ON `mail_jobs` (`user_id`,`kind`,`ref`,`created_at`);
--> statement-breakpoint
CREATE UNIQUE INDEX `mail_jobs_pending_ref_unique` ON `mail_jobs` (`user_id`,`kind`,`ref`) WHERE "mail_jobs"."status" = 'pending';

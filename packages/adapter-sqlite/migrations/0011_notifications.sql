-- 1.3 notification mail: `notification_settings` (a user's choices; no row
-- means core's defaults) and `notification_cursor`, the one row holding the
-- seq of the last event turned into notification mail. The cursor starts at
-- the log's last seq, exactly as webhook_fanout did: an existing database
-- does not mail about its history. That seq is sqlite_sequence's
-- (AUTOINCREMENT keeps the highest seq ever given, also when the sweep
-- removed its row).
CREATE TABLE `notification_settings` (
	`user_id` text PRIMARY KEY NOT NULL,
	`message_mail` text NOT NULL,
	`saved_search_mail` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "notification_settings_message_mail_check" CHECK("notification_settings"."message_mail" IN ('instant', 'off')),
	CONSTRAINT "notification_settings_saved_search_mail_check" CHECK("notification_settings"."saved_search_mail" IN ('instant', 'daily', 'off'))
);
--> statement-breakpoint
CREATE TABLE `notification_cursor` (
	`id` integer PRIMARY KEY NOT NULL,
	`last_seq` integer NOT NULL,
	CONSTRAINT "notification_cursor_one_row_check" CHECK("notification_cursor"."id" = 1)
);
--> statement-breakpoint
INSERT INTO `notification_cursor` (`id`, `last_seq`) VALUES (1, max(
	coalesce((SELECT `seq` FROM `sqlite_sequence` WHERE `name` = 'events'), 0),
	coalesce((SELECT max(`seq`) FROM `events`), 0)
));
--> statement-breakpoint
-- mail_jobs gains `ref` (what a mail is about: a conversation) and the kind
-- `message_received`. SQLite cannot alter a CHECK, so the table is rebuilt as
-- in 0010 (create, copy every row with ref NULL, drop, rename, recreate the
-- indexes), inside the migrator's one transaction; no PRAGMA foreign_keys=OFF
-- (a no-op inside a transaction, and no table refers to mail_jobs).
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
	CONSTRAINT "mail_jobs_kind_check" CHECK("__new_mail_jobs"."kind" IN ('password_reset', 'email_verification', 'webhook_disabled', 'message_received')),
	CONSTRAINT "mail_jobs_status_check" CHECK("__new_mail_jobs"."status" IN ('pending', 'sent', 'failed')),
	CONSTRAINT "mail_jobs_attempts_check" CHECK("__new_mail_jobs"."attempts" >= 0)
);
--> statement-breakpoint
INSERT INTO `__new_mail_jobs`("id", "user_id", "kind", "status", "attempts", "next_attempt_at", "last_error", "created_at", "sent_at") SELECT "id", "user_id", "kind", "status", "attempts", "next_attempt_at", "last_error", "created_at", "sent_at" FROM `mail_jobs`;
--> statement-breakpoint
DROP TABLE `mail_jobs`;
--> statement-breakpoint
ALTER TABLE `__new_mail_jobs` RENAME TO `mail_jobs`;
--> statement-breakpoint
CREATE INDEX `mail_jobs_status_next_attempt_at_id_idx` ON `mail_jobs` (`status`,`next_attempt_at`,`id`);
--> statement-breakpoint
CREATE INDEX `mail_jobs_user_id_kind_created_at_idx` ON `mail_jobs` (`user_id`,`kind`,`created_at`);
--> statement-breakpoint
-- enqueueCoalesced: the last job about one ref in one seek, and at most one
-- pending job per (user, kind, ref) as its ON CONFLICT target (NULL refs, the
-- kinds about nothing but their user, never conflict).
CREATE INDEX `mail_jobs_user_id_kind_ref_created_at_idx` ON `mail_jobs` (`user_id`,`kind`,`ref`,`created_at`);
--> statement-breakpoint
CREATE UNIQUE INDEX `mail_jobs_pending_ref_unique` ON `mail_jobs` (`user_id`,`kind`,`ref`) WHERE "mail_jobs"."status" = 'pending';
--> statement-breakpoint
-- messages.latestBetween: one conversation's newest message in one seek.
CREATE INDEX `messages_receiver_id_sender_id_listing_id_id_idx` ON `messages` (`receiver_id`,`sender_id`,`listing_id`,`id`);

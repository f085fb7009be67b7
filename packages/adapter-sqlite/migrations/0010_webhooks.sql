-- 1.3 webhooks: `webhooks` (a user's receivers), `webhook_deliveries` (one
-- event on its way to one webhook, with every attempt folded in) and
-- `webhook_fanout`, the one row holding the seq of the last event made into
-- deliveries. The cursor starts at the log's last seq: an existing database
-- does not fan out its history. That seq is sqlite_sequence's (AUTOINCREMENT
-- keeps the highest seq ever given, also when the sweep removed its row).
CREATE TABLE `webhooks` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`url` text NOT NULL,
	`types` text NOT NULL,
	`description` text NOT NULL,
	`enabled` integer NOT NULL,
	`disabled_reason` text,
	`secrets` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhooks_user_id_id_idx` ON `webhooks` (`user_id`,`id`);
--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`webhook_id` text NOT NULL,
	`event_id` text NOT NULL,
	`type` text NOT NULL,
	`payload` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`state` text NOT NULL,
	`last_status` integer,
	`last_error` text,
	`next_attempt_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`webhook_id`) REFERENCES `webhooks`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "webhook_deliveries_state_check" CHECK("webhook_deliveries"."state" IN ('pending', 'succeeded', 'failed')),
	CONSTRAINT "webhook_deliveries_attempts_check" CHECK("webhook_deliveries"."attempts" >= 0)
);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_pending_due_idx` ON `webhook_deliveries` (`next_attempt_at`,`id`) WHERE "webhook_deliveries"."state" = 'pending';
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_webhook_id_id_idx` ON `webhook_deliveries` (`webhook_id`,`id`);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_created_at_idx` ON `webhook_deliveries` (`created_at`);
--> statement-breakpoint
CREATE TABLE `webhook_fanout` (
	`id` integer PRIMARY KEY NOT NULL,
	`last_seq` integer NOT NULL,
	CONSTRAINT "webhook_fanout_one_row_check" CHECK("webhook_fanout"."id" = 1)
);
--> statement-breakpoint
INSERT INTO `webhook_fanout` (`id`, `last_seq`) VALUES (1, max(
	coalesce((SELECT `seq` FROM `sqlite_sequence` WHERE `name` = 'events'), 0),
	coalesce((SELECT max(`seq`) FROM `events`), 0)
));
--> statement-breakpoint
-- mail_jobs gains the kind `webhook_disabled`. SQLite cannot alter a CHECK, so
-- the table is rebuilt as SQLite documents (create, copy every row, drop,
-- rename, recreate the indexes), inside the migrator's one transaction. No
-- PRAGMA foreign_keys=OFF: it is a no-op inside a transaction, and not needed,
-- since no table refers to mail_jobs (dropping it checks nothing).
CREATE TABLE `__new_mail_jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`last_error` text,
	`created_at` integer NOT NULL,
	`sent_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "mail_jobs_kind_check" CHECK("__new_mail_jobs"."kind" IN ('password_reset', 'email_verification', 'webhook_disabled')),
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
CREATE TABLE `email_verification_tokens` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	`used_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `email_verification_tokens_user_id_idx` ON `email_verification_tokens` (`user_id`);--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
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
	CONSTRAINT "mail_jobs_kind_check" CHECK("__new_mail_jobs"."kind" IN ('password_reset', 'email_verification')),
	CONSTRAINT "mail_jobs_status_check" CHECK("__new_mail_jobs"."status" IN ('pending', 'sent', 'failed')),
	CONSTRAINT "mail_jobs_attempts_check" CHECK("__new_mail_jobs"."attempts" >= 0)
);
--> statement-breakpoint
INSERT INTO `__new_mail_jobs`("id", "user_id", "kind", "status", "attempts", "next_attempt_at", "last_error", "created_at", "sent_at") SELECT "id", "user_id", "kind", "status", "attempts", "next_attempt_at", "last_error", "created_at", "sent_at" FROM `mail_jobs`;--> statement-breakpoint
DROP TABLE `mail_jobs`;--> statement-breakpoint
ALTER TABLE `__new_mail_jobs` RENAME TO `mail_jobs`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `mail_jobs_status_next_attempt_at_id_idx` ON `mail_jobs` (`status`,`next_attempt_at`,`id`);--> statement-breakpoint
CREATE INDEX `mail_jobs_user_id_kind_created_at_idx` ON `mail_jobs` (`user_id`,`kind`,`created_at`);--> statement-breakpoint
ALTER TABLE `users` ADD `email_verified_at` integer;
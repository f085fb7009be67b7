CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`key_hash` text NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`last_used` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_key_hash_unique` ON `api_keys` (`key_hash`);--> statement-breakpoint
CREATE INDEX `api_keys_user_id_id_idx` ON `api_keys` (`user_id`,`id`);--> statement-breakpoint
CREATE TABLE `listings` (
	`seq` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`title` text NOT NULL,
	`title_folded` text NOT NULL,
	`description` text NOT NULL,
	`price` real,
	`category` text NOT NULL,
	`condition` text NOT NULL,
	`images` text NOT NULL,
	`user_id` text NOT NULL,
	`structured_data` text,
	`status` text NOT NULL,
	`contact_email` text,
	`expires_at` integer,
	`views` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "listings_category_check" CHECK("listings"."category" IN ('strategic-consulting', 'software-development', 'digital-marketing', 'ux-ui-design', 'staffing-hr', 'data-analytics', 'cybersecurity', 'artificial-intelligence', 'legal-consulting', 'financial-services')),
	CONSTRAINT "listings_status_check" CHECK("listings"."status" IN ('active', 'paused')),
	CONSTRAINT "listings_views_check" CHECK("listings"."views" >= 0),
	CONSTRAINT "listings_price_check" CHECK("listings"."price" IS NULL OR "listings"."price" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `listings_id_unique` ON `listings` (`id`);--> statement-breakpoint
CREATE INDEX `listings_status_id_idx` ON `listings` (`status`,`id`);--> statement-breakpoint
CREATE INDEX `listings_category_status_id_idx` ON `listings` (`category`,`status`,`id`);--> statement-breakpoint
CREATE INDEX `listings_user_id_id_idx` ON `listings` (`user_id`,`id`);--> statement-breakpoint
CREATE TABLE `mail_jobs` (
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
	CONSTRAINT "mail_jobs_kind_check" CHECK("mail_jobs"."kind" IN ('password_reset')),
	CONSTRAINT "mail_jobs_status_check" CHECK("mail_jobs"."status" IN ('pending', 'sent', 'failed')),
	CONSTRAINT "mail_jobs_attempts_check" CHECK("mail_jobs"."attempts" >= 0)
);
--> statement-breakpoint
CREATE INDEX `mail_jobs_status_next_attempt_at_id_idx` ON `mail_jobs` (`status`,`next_attempt_at`,`id`);--> statement-breakpoint
CREATE INDEX `mail_jobs_user_id_kind_created_at_idx` ON `mail_jobs` (`user_id`,`kind`,`created_at`);--> statement-breakpoint
CREATE TABLE `messages` (
	`id` text PRIMARY KEY NOT NULL,
	`listing_id` text NOT NULL,
	`sender_id` text NOT NULL,
	`receiver_id` text NOT NULL,
	`content` text NOT NULL,
	`is_agent` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `messages_receiver_id_id_idx` ON `messages` (`receiver_id`,`id`);--> statement-breakpoint
CREATE INDEX `messages_sender_id_id_idx` ON `messages` (`sender_id`,`id`);--> statement-breakpoint
CREATE TABLE `reset_tokens` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	`used_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `reset_tokens_user_id_idx` ON `reset_tokens` (`user_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`display_name` text NOT NULL,
	`is_admin` integer DEFAULT false NOT NULL,
	`account_type` text NOT NULL,
	`password_hash` text,
	`token_version` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	CONSTRAINT "users_account_type_check" CHECK("users"."account_type" IN ('personal', 'business'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);
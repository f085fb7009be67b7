-- 1.3 event log (transactional outbox). AUTOINCREMENT so that a seq is never
-- given twice, even after the sweep removed the newest rows: readers poll with
-- the last seq they saw. A deleted user's events go with them (ON DELETE CASCADE).
CREATE TABLE `events` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`type` text NOT NULL,
	`user_id` text NOT NULL,
	`occurred_at` integer NOT NULL,
	`data` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `events_id_unique` ON `events` (`id`);--> statement-breakpoint
CREATE INDEX `events_user_id_seq_idx` ON `events` (`user_id`,`seq`);--> statement-breakpoint
CREATE INDEX `events_occurred_at_idx` ON `events` (`occurred_at`);
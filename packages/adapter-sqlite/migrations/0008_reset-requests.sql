-- 1.3: password-reset requests wait here, durably, from the moment they are
-- answered until a mail round resolves them (before, they waited in process
-- memory and a crash after the answer lost them). No foreign key: the address
-- is not looked up when the request is stored, and may have no account.
CREATE TABLE `reset_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`requested_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `reset_requests_requested_at_id_idx` ON `reset_requests` (`requested_at`,`id`);
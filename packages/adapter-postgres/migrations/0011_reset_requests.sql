-- 1.3: password-reset requests wait here, durably, from the moment they are
-- answered until a mail round resolves them (before, they waited in process
-- memory and a crash after the answer lost them). A round deletes them with
-- FOR UPDATE SKIP LOCKED in the transaction that queues their mail, so several
-- processes share the work and a failed round puts them back. No foreign key:
-- the address is not looked up when the request is stored.
CREATE TABLE "reset_requests" (
	"id" uuid PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"requested_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "reset_requests_requested_at_id_idx" ON "reset_requests" USING btree ("requested_at","id");
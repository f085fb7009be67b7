-- 1.3 notification mail: `notification_settings` (a user's choices; no row
-- means core's defaults) and `notification_cursor`, the one row holding the
-- seq of the last event turned into notification mail. The cursor starts at
-- the event counter's last seq (the highest given, also when the sweep
-- removed its row), exactly as webhook_fanout did: an existing database does
-- not mail about its history. The row is seeded here and only ever updated.
CREATE TABLE "notification_settings" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"message_mail" text NOT NULL,
	"saved_search_mail" text NOT NULL,
	CONSTRAINT "notification_settings_message_mail_check" CHECK ("notification_settings"."message_mail" in ('instant', 'off')),
	CONSTRAINT "notification_settings_saved_search_mail_check" CHECK ("notification_settings"."saved_search_mail" in ('instant', 'daily', 'off'))
);
--> statement-breakpoint
CREATE TABLE "notification_cursor" (
	"id" integer PRIMARY KEY NOT NULL,
	"last_seq" bigint NOT NULL,
	CONSTRAINT "notification_cursor_one_row_check" CHECK ("notification_cursor"."id" = 1)
);
--> statement-breakpoint
ALTER TABLE "notification_settings" ADD CONSTRAINT "notification_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
INSERT INTO "notification_cursor" ("id", "last_seq")
	SELECT 1, coalesce((SELECT "last" FROM "event_sequence" WHERE "id" = 1), (SELECT max("seq") FROM "events"), 0);--> statement-breakpoint
-- mail_jobs gains `ref` (what a mail is about: a conversation; NULL for the
-- rows already queued) and the kind `message_received`: the CHECK is dropped
-- and added again in one statement, so no moment lacks it.
ALTER TABLE "mail_jobs" ADD COLUMN "ref" text,
	DROP CONSTRAINT "mail_jobs_kind_check",
	ADD CONSTRAINT "mail_jobs_kind_check" CHECK ("mail_jobs"."kind" in ('password_reset', 'email_verification', 'webhook_disabled', 'message_received'));--> statement-breakpoint
-- enqueueCoalesced: the last job about one ref in one seek, and at most one
-- pending job per (user, kind, ref), the arbiter of its ON CONFLICT DO
-- NOTHING, so racing calls store one (NULL refs never conflict).
CREATE INDEX "mail_jobs_user_id_kind_ref_created_at_idx" ON "mail_jobs" USING btree ("user_id","kind","ref","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "mail_jobs_pending_ref_idx" ON "mail_jobs" USING btree ("user_id","kind","ref") WHERE "mail_jobs"."status" = 'pending';--> statement-breakpoint
-- messages.latestBetween: one conversation's newest message in one seek.
CREATE INDEX "messages_receiver_id_sender_id_listing_id_idx" ON "messages" USING btree ("receiver_id","sender_id","listing_id","id" DESC NULLS FIRST);

-- 1.3 webhooks: `webhooks` (a user's receivers), `webhook_deliveries` (one
-- event on its way to one webhook, with every attempt folded in) and
-- `webhook_fanout`, the one row holding the seq of the last event made into
-- deliveries. The cursor starts at the event counter's last seq (the highest
-- given, also when the sweep removed its row): an existing database does not
-- fan out its history. Like event_sequence, the row is seeded here and only
-- ever updated.
CREATE TABLE "webhooks" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"url" text NOT NULL,
	"types" text[] NOT NULL,
	"description" text NOT NULL,
	"enabled" boolean NOT NULL,
	"disabled_reason" text,
	"secrets" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "webhooks_secrets_check" CHECK (jsonb_typeof("webhooks"."secrets") = 'array')
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"webhook_id" uuid NOT NULL,
	"event_id" text NOT NULL,
	"type" text NOT NULL,
	"payload" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"state" text NOT NULL,
	"last_status" integer,
	"last_error" text,
	"next_attempt_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "webhook_deliveries_state_check" CHECK ("webhook_deliveries"."state" in ('pending', 'succeeded', 'failed')),
	CONSTRAINT "webhook_deliveries_attempts_check" CHECK ("webhook_deliveries"."attempts" >= 0)
);
--> statement-breakpoint
CREATE TABLE "webhook_fanout" (
	"id" integer PRIMARY KEY NOT NULL,
	"last_seq" bigint NOT NULL,
	CONSTRAINT "webhook_fanout_one_row_check" CHECK ("webhook_fanout"."id" = 1)
);
--> statement-breakpoint
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_webhook_id_webhooks_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "public"."webhooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhooks_user_id_id_idx" ON "webhooks" USING btree ("user_id","id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "webhook_deliveries_pending_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at","id") WHERE "webhook_deliveries"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_deliveries_webhook_id_id_idx" ON "webhook_deliveries" USING btree ("webhook_id","id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "webhook_deliveries_created_at_idx" ON "webhook_deliveries" USING btree ("created_at");--> statement-breakpoint
INSERT INTO "webhook_fanout" ("id", "last_seq")
	SELECT 1, coalesce((SELECT "last" FROM "event_sequence" WHERE "id" = 1), (SELECT max("seq") FROM "events"), 0);--> statement-breakpoint
-- mail_jobs gains the kind `webhook_disabled`: the CHECK is dropped and added
-- again in one statement, so no moment lacks it.
ALTER TABLE "mail_jobs" DROP CONSTRAINT "mail_jobs_kind_check",
	ADD CONSTRAINT "mail_jobs_kind_check" CHECK ("mail_jobs"."kind" in ('password_reset', 'email_verification', 'webhook_disabled'));

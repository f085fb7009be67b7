-- The event log of 1.3 (a transactional outbox): `events`, written in the
-- transaction of each change, and `event_sequence`, the one counter row its
-- seqs come from. A writer bumps the counter as its last statement and holds
-- the row until it commits, so seqs become visible in commit order and a
-- reader polling after the last seq it saw never skips one (DESIGN.md
-- "Event log"). The row is seeded here; writers only ever update it.
CREATE TABLE "event_sequence" (
	"id" integer PRIMARY KEY NOT NULL,
	"last" bigint NOT NULL,
	CONSTRAINT "event_sequence_one_row_check" CHECK ("event_sequence"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "events" (
	"seq" bigint PRIMARY KEY NOT NULL,
	"id" text NOT NULL,
	"type" text NOT NULL,
	"user_id" uuid NOT NULL,
	"occurred_at" timestamp (3) with time zone NOT NULL,
	"data" jsonb NOT NULL,
	CONSTRAINT "events_type_check" CHECK ("events"."type" in ('listing.created', 'listing.updated', 'listing.deleted', 'message.received', 'saved_search.matched', 'webhook.test')),
	CONSTRAINT "events_data_check" CHECK (jsonb_typeof("events"."data") = 'object')
);
--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "events_id_idx" ON "events" USING btree ("id");--> statement-breakpoint
CREATE INDEX "events_user_id_seq_idx" ON "events" USING btree ("user_id","seq");--> statement-breakpoint
CREATE INDEX "events_occurred_at_idx" ON "events" USING btree ("occurred_at");--> statement-breakpoint
INSERT INTO "event_sequence" ("id", "last") VALUES (1, 0);
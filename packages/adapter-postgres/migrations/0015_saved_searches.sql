-- 1.3 saved searches: `saved_searches` (indexed by `match_key`, core's
-- savedSearchMatchKey, so matching a new listing looks up only its
-- candidates), `saved_search_matches` (each listing told to a saved search's
-- owner once) and `saved_search_cursor`, the one row holding the seq of the
-- last event matched. The cursor starts at the event counter's last seq, as
-- notification_cursor did: an existing database does not match its history.
CREATE TABLE "saved_searches" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"q" text,
	"search" text,
	"category" text,
	"min_price" double precision,
	"max_price" double precision,
	"match_key" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "saved_searches_category_check" CHECK ("saved_searches"."category" IS NULL OR "saved_searches"."category" in ('strategic-consulting', 'software-development', 'digital-marketing', 'ux-ui-design', 'staffing-hr', 'data-analytics', 'cybersecurity', 'artificial-intelligence', 'legal-consulting', 'financial-services'))
);
--> statement-breakpoint
CREATE TABLE "saved_search_matches" (
	"saved_search_id" uuid NOT NULL,
	"listing_id" uuid NOT NULL,
	"matched_at" timestamp (3) with time zone NOT NULL,
	"mailed_at" timestamp (3) with time zone,
	CONSTRAINT "saved_search_matches_saved_search_id_listing_id_pk" PRIMARY KEY("saved_search_id","listing_id")
);
--> statement-breakpoint
CREATE TABLE "saved_search_cursor" (
	"id" integer PRIMARY KEY NOT NULL,
	"last_seq" bigint NOT NULL,
	CONSTRAINT "saved_search_cursor_one_row_check" CHECK ("saved_search_cursor"."id" = 1)
);
--> statement-breakpoint
ALTER TABLE "saved_searches" ADD CONSTRAINT "saved_searches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_search_matches" ADD CONSTRAINT "saved_search_matches_saved_search_id_saved_searches_id_fk" FOREIGN KEY ("saved_search_id") REFERENCES "public"."saved_searches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "saved_searches_user_id_id_idx" ON "saved_searches" USING btree ("user_id","id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "saved_searches_match_key_idx" ON "saved_searches" USING btree ("match_key");--> statement-breakpoint
-- A mail's new matches of one saved search, oldest first, in one seek.
CREATE INDEX "saved_search_matches_unmailed_idx" ON "saved_search_matches" USING btree ("saved_search_id","matched_at") WHERE "saved_search_matches"."mailed_at" IS NULL;--> statement-breakpoint
INSERT INTO "saved_search_cursor" ("id", "last_seq")
	SELECT 1, coalesce((SELECT "last" FROM "event_sequence" WHERE "id" = 1), (SELECT max("seq") FROM "events"), 0);
--> statement-breakpoint
-- mail_jobs gains the kind `saved_search_matched` (its ref: a saved search's
-- id, or "daily" for the digest): the CHECK is dropped and added again in one
-- statement, so no moment lacks it.
ALTER TABLE "mail_jobs" DROP CONSTRAINT "mail_jobs_kind_check",
	ADD CONSTRAINT "mail_jobs_kind_check" CHECK ("mail_jobs"."kind" in ('password_reset', 'email_verification', 'webhook_disabled', 'message_received', 'saved_search_matched'));

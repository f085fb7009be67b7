CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"key_hash" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"last_used" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "listings" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"title" text NOT NULL,
	"title_folded" text NOT NULL,
	"description" text NOT NULL,
	"price" double precision,
	"category" text NOT NULL,
	"condition" text NOT NULL,
	"images" jsonb NOT NULL,
	"structured_data" jsonb,
	"status" text NOT NULL,
	"contact_email" text,
	"expires_at" timestamp (3) with time zone,
	"views" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "listings_category_check" CHECK ("listings"."category" in ('strategic-consulting', 'software-development', 'digital-marketing', 'ux-ui-design', 'staffing-hr', 'data-analytics', 'cybersecurity', 'artificial-intelligence', 'legal-consulting', 'financial-services')),
	CONSTRAINT "listings_status_check" CHECK ("listings"."status" in ('active', 'paused')),
	CONSTRAINT "listings_images_check" CHECK (jsonb_typeof("listings"."images") = 'array'),
	CONSTRAINT "listings_structured_data_check" CHECK (jsonb_typeof("listings"."structured_data") = 'object'),
	CONSTRAINT "listings_views_check" CHECK ("listings"."views" >= 0)
);
--> statement-breakpoint
CREATE TABLE "mail_jobs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp (3) with time zone NOT NULL,
	"last_error" text,
	"created_at" timestamp (3) with time zone NOT NULL,
	"sent_at" timestamp (3) with time zone,
	CONSTRAINT "mail_jobs_kind_check" CHECK ("mail_jobs"."kind" in ('password_reset')),
	CONSTRAINT "mail_jobs_status_check" CHECK ("mail_jobs"."status" in ('pending', 'sent', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" uuid PRIMARY KEY NOT NULL,
	"listing_id" uuid NOT NULL,
	"sender_id" uuid NOT NULL,
	"receiver_id" uuid NOT NULL,
	"content" text NOT NULL,
	"is_agent" boolean NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reset_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"used_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"display_name" text NOT NULL,
	"is_admin" boolean DEFAULT false NOT NULL,
	"account_type" text NOT NULL,
	"password_hash" text,
	"token_version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "users_account_type_check" CHECK ("users"."account_type" in ('personal', 'business'))
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listings" ADD CONSTRAINT "listings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_jobs" ADD CONSTRAINT "mail_jobs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reset_tokens" ADD CONSTRAINT "reset_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_key_hash_idx" ON "api_keys" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "api_keys_user_id_idx" ON "api_keys" USING btree ("user_id","id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "listings_status_id_idx" ON "listings" USING btree ("status","id" DESC NULLS FIRST,"expires_at","title_folded");--> statement-breakpoint
CREATE INDEX "listings_category_status_id_idx" ON "listings" USING btree ("category","status","id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "listings_user_id_idx" ON "listings" USING btree ("user_id","id" DESC NULLS FIRST,"status","expires_at");--> statement-breakpoint
CREATE INDEX "listings_title_trgm_idx" ON "listings" USING gin ("title_folded" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "mail_jobs_status_next_attempt_at_idx" ON "mail_jobs" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "mail_jobs_user_id_kind_created_at_idx" ON "mail_jobs" USING btree ("user_id","kind","created_at");--> statement-breakpoint
CREATE INDEX "messages_receiver_id_idx" ON "messages" USING btree ("receiver_id","id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "messages_sender_id_idx" ON "messages" USING btree ("sender_id","id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "reset_tokens_user_id_idx" ON "reset_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_lower_idx" ON "users" USING btree (lower("email"));
-- 1.3 keys carry a prefix to tell them apart, scopes and an expiry, which a
-- rotation sets on the key it replaces. Keys made before keep NULL in all
-- three: no prefix shown, unrestricted, never expiring, as they were.
ALTER TABLE "api_keys" ADD COLUMN "prefix" text;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "scopes" text[];--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "expires_at" timestamp (3) with time zone;
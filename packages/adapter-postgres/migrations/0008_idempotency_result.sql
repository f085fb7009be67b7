-- Core keeps an opaque result per key (the edge encodes its answer into
-- it) instead of an HTTP status and body. The answers 1.2 kept become results
-- in the form adapter-http encodes, `{"status":S,"body":"..."}`, so a key
-- answered before the upgrade is still replayed after it. `status` and `body`
-- stay (unused) for a 1.2 process still running, or a rollback to 1.2.
ALTER TABLE "idempotency_keys" ADD COLUMN "result" text;--> statement-breakpoint
UPDATE "idempotency_keys" SET "result" = json_build_object('status', "status", 'body', "body")::text WHERE "status" IS NOT NULL AND "body" IS NOT NULL;

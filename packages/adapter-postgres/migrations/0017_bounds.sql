-- Idempotency keys are bounded per caller (core's IDEMPOTENCY_MAX_KEYS_PER_CALLER and
-- IDEMPOTENCY_MAX_BYTES_PER_CALLER): each claim records whose it is (a digest of the caller's
-- scope) and each answer its size, read together from one index. Claims made before carry no
-- caller and count for no one; they lapse within 24 hours.
ALTER TABLE "idempotency_keys" ADD COLUMN "caller" text;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN "size" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "idempotency_keys_caller_idx" ON "idempotency_keys" USING btree ("caller","expires_at","size");

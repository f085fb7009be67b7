import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  CATEGORY_VALUES,
  EVENT_TYPES,
  type MailKind,
  MESSAGE_MAIL_CHOICES,
  SAVED_SEARCH_MAIL_CHOICES,
} from "@psm/core";
import { buildListing, buildUser } from "@psm/core/testing";
import { expect, it } from "vitest";
import { lockWaiters } from "../test/batch-support.js";
import { databaseBefore } from "../test/database-before.js";
import { describePostgres } from "../test/hooks.js";
import { connect } from "./connection.js";
import { openPostgresStorage } from "./index.js";
import { MIGRATION_LOCK_KEY } from "./migrate.js";
import { MIGRATIONS_FOLDER } from "./migrations-folder.js";
import {
  CATEGORY_CHECK_VALUES,
  everyOne,
  MAIL_KIND_CHECK_VALUES,
  MESSAGE_MAIL_CHECK_VALUES,
  SAVED_SEARCH_MAIL_CHECK_VALUES,
} from "./schema.js";
import { EVENT_TYPE_CHECK_VALUES } from "./schema-events.js";
import { createTestDatabase, testDatabaseUrl } from "./testing/index.js";

const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8")) as {
  entries: unknown[];
};

it("allows exactly core's categories in the CHECK constraint", () => {
  expect([...CATEGORY_CHECK_VALUES].sort()).toEqual([...CATEGORY_VALUES].sort());
});

it("allows exactly core's event types in the CHECK constraint", () => {
  expect([...EVENT_TYPE_CHECK_VALUES].sort()).toEqual([...EVENT_TYPES].sort());
});

it("allows every mail kind in the CHECK constraint: a list leaving one out does not compile", () => {
  expect([...MAIL_KIND_CHECK_VALUES]).toEqual([
    "password_reset",
    "email_verification",
    "webhook_disabled",
    "message_received",
    "saved_search_matched",
  ]);
  // @ts-expect-error saved_search_matched is left out (tsc -p tsconfig.tests.json checks this line)
  everyOne<MailKind>()(["password_reset", "email_verification", "webhook_disabled", "message_received"]);
});

it("allows exactly core's notification choices in the settings' CHECK constraints", () => {
  expect([...MESSAGE_MAIL_CHECK_VALUES]).toEqual([...MESSAGE_MAIL_CHOICES]);
  expect([...SAVED_SEARCH_MAIL_CHECK_VALUES]).toEqual([...SAVED_SEARCH_MAIL_CHOICES]);
});

describePostgres("postgres migrations", (ctx) => {
  const appliedCount = async (url: string) => {
    const { sql } = connect(url, 1);
    try {
      const [row] = await sql<{ n: number }[]>`select count(*)::int as n from drizzle.__drizzle_migrations`;
      return row?.n;
    } finally {
      await sql.end();
    }
  };

  it("creates the tables, every index and pg_trgm", async () => {
    const { sql } = ctx.connection();
    const tables = await sql<
      { t: string }[]
    >`select tablename as t from pg_tables where schemaname = 'public'`;
    expect(tables.map((r) => r.t).sort()).toEqual(
      [
        "api_keys",
        "email_verification_tokens",
        "event_sequence",
        "events",
        "idempotency_keys",
        "listings",
        "mail_jobs",
        "messages",
        "notification_cursor",
        "notification_settings",
        "oauth_clients",
        "oauth_codes",
        "oauth_grants",
        "oauth_refresh_tokens",
        "reset_requests",
        "reset_tokens",
        "saved_search_cursor",
        "saved_search_matches",
        "saved_searches",
        "sessions",
        "users",
        "webhook_deliveries",
        "webhook_fanout",
        "webhooks",
      ].sort(),
    );
    const indexes = await sql<
      { i: string }[]
    >`select indexname as i from pg_indexes where schemaname = 'public'`;
    expect(indexes.map((r) => r.i)).toEqual(
      expect.arrayContaining([
        "listings_active_id_idx",
        "listings_paused_id_idx",
        "listings_category_status_id_idx",
        "listings_user_id_idx",
        "listings_title_trgm_idx",
        "users_email_lower_idx",
        "api_keys_key_hash_idx",
        "messages_receiver_id_idx",
        "messages_sender_id_idx",
        "messages_receiver_id_sender_id_listing_id_idx",
        "mail_jobs_status_next_attempt_at_idx",
        "mail_jobs_user_id_kind_ref_created_at_idx",
        "mail_jobs_pending_ref_idx",
        "email_verification_tokens_user_id_idx",
        "sessions_user_id_idx",
        "sessions_expires_at_idx",
        "idempotency_keys_expires_at_idx",
        "events_id_idx",
        "events_user_id_seq_idx",
        "events_occurred_at_idx",
        "reset_requests_requested_at_id_idx",
        "webhooks_user_id_id_idx",
        "webhook_deliveries_pending_due_idx",
        "webhook_deliveries_webhook_id_id_idx",
        "webhook_deliveries_created_at_idx",
        "oauth_grants_user_id_idx",
        "oauth_refresh_tokens_grant_id_idx",
      ]),
    );
    expect(indexes.map((r) => r.i)).not.toContain("listings_status_id_idx");
    const [trgm] = await sql`select 1 from pg_extension where extname = 'pg_trgm'`;
    expect(trgm).toBeDefined();
    // The histogram the planner reads a term's share of titles from (0006_search_indexes).
    const [title] = await sql<{ t: number }[]>`
      select attstattarget as t from pg_attribute
      where attrelid = 'listings'::regclass and attname = 'title_folded'`;
    expect(title?.t).toBe(2500);
  });

  it("is idempotent: migrating again applies nothing", async () => {
    expect(await appliedCount(ctx.database().url)).toBe(journal.entries.length);
    const storage = ctx.storage();
    await storage.migrate();
    await storage.migrate();
    expect(await appliedCount(ctx.database().url)).toBe(journal.entries.length);
  });

  it("is safe when several processes migrate one fresh database at once", async () => {
    const fresh = await createTestDatabase(testDatabaseUrl()!);
    const storages = Array.from({ length: 4 }, () => openPostgresStorage({ url: fresh.url }));
    try {
      await Promise.all(storages.map((storage) => storage.migrate()));
      const user = buildUser();
      await storages[0]!.repositories.users.insert(user);
      expect(await storages[3]!.repositories.users.findById(user.id)).toEqual(user);
      expect(await appliedCount(fresh.url)).toBe(journal.entries.length);
    } finally {
      await Promise.all(storages.map((storage) => storage.close()));
      await fresh.drop();
    }
  });

  it("upgrades a 1.1 database: its accounts stay, unproven, and its queued mail stays", async () => {
    // The migrations of 1.1 (everything before 0003), applied as 1.1 applied them.
    const old = await databaseBefore("0003_email_verification");
    try {
      const user = buildUser({ email: "before@example.com", tokenVersion: 4 });
      await old.sql`insert into users (id, email, display_name, account_type, password_hash, token_version, created_at)
        values (${user.id}, ${user.email}, ${user.displayName}, 'personal', ${user.passwordHash}, 4, ${user.createdAt.toISOString()})`;
      const jobId = crypto.randomUUID();
      await old.sql`insert into mail_jobs (id, user_id, kind, status, next_attempt_at, created_at)
        values (${jobId}, ${user.id}, 'password_reset', 'pending', now(), now())`;

      const storage = openPostgresStorage({ url: old.url });
      try {
        await storage.migrate();
        expect(await storage.repositories.users.findById(user.id)).toEqual({
          ...user,
          emailVerifiedAt: null,
        });
        expect(await storage.repositories.mailQueue.findById(jobId)).toMatchObject({
          kind: "password_reset",
        });
        await storage.repositories.mailQueue.enqueue({
          id: crypto.randomUUID(),
          userId: user.id,
          kind: "email_verification",
          createdAt: new Date(),
        });
        expect(await appliedCount(old.url)).toBe(journal.entries.length);
      } finally {
        await storage.close();
      }
    } finally {
      await old.drop();
    }
  });

  it("waits for the advisory lock another migrator holds", async () => {
    const holder = ctx.connection().sql;
    const reserved = await holder.reserve();
    await reserved`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`;
    let done = false;
    const running = ctx
      .storage()
      .migrate()
      .then(() => {
        done = true;
      });
    // Seen waiting on the lock (whenever the machine gets there), not merely slow.
    await lockWaiters(ctx.connection(), 1);
    expect(done).toBe(false);
    await reserved`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`;
    reserved.release();
    await running;
    expect(done).toBe(true);
  });

  it("keeps acknowledged writes across close and reopen", async () => {
    const first = openPostgresStorage({ url: ctx.database().url });
    const user = buildUser({ email: "durable@example.com" });
    const listing = buildListing({ userId: user.id, title: "Durable", price: 1234.56 });
    await first.repositories.users.insert(user);
    expect(
      await first.repositories.listings.insertWithinSlots(listing, { maxSlots: 5, now: new Date() }),
    ).toBe(true);
    await first.close();
    expect(await first.ping()).toBe(false);

    const second = openPostgresStorage({ url: ctx.database().url });
    try {
      expect(await second.repositories.users.findByEmail("durable@example.com")).toEqual(user);
      expect(await second.repositories.listings.findById(listing.id)).toEqual(listing);
    } finally {
      await second.close();
    }
  });

  it("close() drains: a query already running completes, later ones are refused", async () => {
    const storage = openPostgresStorage({ url: ctx.database().url, poolMax: 2 });
    const user = buildUser();
    const listing = buildListing({ userId: user.id, views: 0 });
    await storage.repositories.users.insert(user);
    await storage.repositories.listings.insertWithinSlots(listing, { maxSlots: 5, now: new Date() });
    // Another session holds the row, so the increment is on the server, waiting, when close() starts.
    const blocker = ctx.connection().sql;
    let release: () => void = () => {};
    let holding: () => void = () => {};
    const holds = new Promise<void>((resolve) => {
      holding = resolve;
    });
    const held = blocker.begin(async (tx) => {
      await tx`select id from listings where id = ${listing.id} for update`;
      holding();
      await new Promise<void>((resolve) => {
        release = resolve;
      });
    });
    await holds;
    const increment = storage.repositories.listings.incrementViews(listing.id);
    // The increment is on the server, waiting for the row, before close() starts: by lock state, not by a clock.
    await lockWaiters(ctx.connection(), 1);
    const closing = storage.close();
    setTimeout(() => release(), 200);
    expect(await increment).toBe(true);
    await closing;
    await held;
    expect(await storage.ping()).toBe(false);
    const reopened = openPostgresStorage({ url: ctx.database().url });
    expect((await reopened.repositories.listings.findById(listing.id))?.views).toBe(1);
    await reopened.close();
  });
});

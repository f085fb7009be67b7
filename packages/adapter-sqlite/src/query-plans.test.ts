import type { EventType, NewEvent } from "@psm/core";
import { buildApiKey, buildListing, buildMessage, buildUser } from "@psm/core/testing";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openConnection } from "./connection.js";
import {
  LIST_AFTER_SQL,
  listForSql,
  SCAN_OF_TYPES_SQL,
  SCAN_WINDOW_SQL,
} from "./repositories/event-repository.js";
import { ftsStopSql, searchSql } from "./repositories/listing-search-sql.js";
import { ENQUEUE_COALESCED_SQL } from "./repositories/mail-queue-sql.js";
import { UNMAILED_MATCHED_SQL, UNMAILED_WALK_END_SQL } from "./repositories/saved-search-repository.js";
import { CLAIM_SQL, DUE_SQL } from "./repositories/webhook-delivery-sql.js";
import { openMigrated, removeTempDbs, tempDbFile } from "./test-support/temp-db.js";

const NOW = new Date("2026-03-01T12:00:00.000Z");

let file: string;
let sqlite: Database.Database;

/** The plan of `sql` with every parameter bound to NULL (plans do not depend on values here). */
function plan(sql: string): string[] {
  const literal = sql.replace(/\?|@\w+/g, "NULL");
  return sqlite
    .prepare<[], { detail: string }>(`EXPLAIN QUERY PLAN ${literal}`)
    .all()
    .map((row) => row.detail);
}

/**
 * A table read without an index: `SCAN t` with no USING (virtual tables
 * excepted, and the rows of a co-routine, which its own lines plan).
 */
function fullScans(lines: string[]): string[] {
  const coroutines = new Set(lines.map((line) => /^CO-ROUTINE (\w+)$/.exec(line.trim())?.[1]));
  return lines.filter((line) => {
    const scanned = /^SCAN (\w+)$/.exec(line.trim())?.[1];
    return scanned !== undefined && !coroutines.has(scanned);
  });
}

beforeAll(async () => {
  file = tempDbFile();
  const storage = await openMigrated(file);
  const user = buildUser({ createdAt: NOW });
  await storage.repositories.users.insert(user);
  for (let i = 0; i < 50; i++) {
    const listing = buildListing({
      userId: user.id,
      title: `Listing ${i}`,
      createdAt: new Date(NOW.getTime() + i),
    });
    await storage.repositories.listings.insertWithinSlots(listing, { maxSlots: 100, now: NOW });
  }
  await storage.close();
  sqlite = openConnection(file);
});
afterAll(() => {
  sqlite.close();
  removeTempDbs();
});

describe("listing queries use an index, in id order, with no full scan of listings", () => {
  const page = { status: "active", category: false, user: false, before: false, text: "none" } as const;
  const cases = {
    "default page": [{ ...page }, "listings_status_id_idx"],
    "default page after a cursor": [{ ...page, before: true }, "listings_status_id_idx (status=? AND id<?)"],
    "category page": [
      { ...page, category: true },
      "listings_category_status_id_idx (category=? AND status=?)",
    ],
    "author page": [{ ...page, user: true, status: "all" }, "listings_user_id_id_idx (user_id=?)"],
    "search, 3+ characters": [{ ...page, text: "fts" }, "VIRTUAL TABLE INDEX"],
    "search, 3+ characters, category and cursor": [
      { ...page, text: "fts", category: true, before: true },
      "VIRTUAL TABLE INDEX",
    ],
    "search, under 3 characters (bounded walk)": [
      { ...page, text: "walk" },
      "listings_status_id_idx (status=?)",
    ],
    "search, under 3 characters, category": [
      { ...page, text: "walk", category: true },
      "listings_category_status_id_idx (category=? AND status=?)",
    ],
    "search within an author's listings (bounded walk)": [
      { ...page, text: "walk", user: true, status: "all" },
      "listings_user_id_id_idx (user_id=?)",
    ],
    "admin list": [{ ...page, status: "all" }, "USING INDEX listings_id_unique"],
    "admin category list (merge of two index ranges)": [
      { ...page, status: "all", category: true },
      "MERGE (UNION ALL)",
    ],
  } as const;

  for (const [name, [shape, expected]] of Object.entries(cases)) {
    it(name, () => {
      const lines = plan(searchSql(shape));
      expect(lines.join("\n")).toContain(expected);
      expect(fullScans(lines)).toEqual([]);
      expect(lines.join("\n"), "sorted instead of read in order").not.toContain("TEMP B-TREE");
    });
  }

  it("FTS candidates stream from a co-routine that drives the loop, joining listings by rowid", () => {
    for (const before of [false, true]) {
      const lines = plan(searchSql({ ...page, text: "fts", before }));
      expect(lines[0]).toBe("CO-ROUTINE c");
      expect(lines[1]).toMatch(/^SCAN f VIRTUAL TABLE INDEX/);
      expect(lines).toContain("SCAN c");
      expect(lines).toContain("SEARCH l USING INTEGER PRIMARY KEY (rowid=?)");
    }
  });

  it("a short FTS page's stopping point is one candidate, looked up by rowid", () => {
    for (const before of [false, true]) {
      const lines = plan(ftsStopSql(before));
      expect(lines[0]).toBe("SEARCH l USING INTEGER PRIMARY KEY (rowid=?)");
      expect(fullScans(lines)).toEqual([]);
    }
  });

  it("the plans hold with statistics too (PRAGMA optimize may ANALYZE)", () => {
    sqlite.exec("ANALYZE");
    for (const [shape] of Object.values(cases)) expect(fullScans(plan(searchSql(shape)))).toEqual([]);
  });
});

describe("event reads", () => {
  it("listFor walks the (user_id, seq) index in seq order, with or without types", () => {
    for (const ofTypes of [false, true]) {
      const lines = plan(listForSql(ofTypes));
      expect(lines[0]).toBe("SEARCH events USING INDEX events_user_id_seq_idx (user_id=? AND seq>?)");
      expect(fullScans(lines)).toEqual([]);
      expect(lines.join("\n"), "sorted instead of read in order").not.toContain("TEMP B-TREE");
    }
  });
});

describe("webhook reads", () => {
  it("listAfter walks the rowid range in seq order", () => {
    const lines = plan(LIST_AFTER_SQL);
    expect(lines[0]).toBe("SEARCH events USING INTEGER PRIMARY KEY (rowid>?)");
    expect(lines.join("\n"), "sorted instead of read in order").not.toContain("TEMP B-TREE");
  });

  it("scanAfter walks the rowid range in seq order for the window and for its rows", () => {
    const window = plan(SCAN_WINDOW_SQL);
    expect(window).toContain("SEARCH events USING INTEGER PRIMARY KEY (rowid>?)");
    const rows = plan(SCAN_OF_TYPES_SQL);
    expect(rows[0]).toBe("SEARCH events USING INTEGER PRIMARY KEY (rowid>? AND rowid<?)");
    expect(fullScans([...window, ...rows])).toEqual([]);
    expect([...window, ...rows].join("\n"), "sorted instead of read in order").not.toContain("TEMP B-TREE");
  });

  it("a mail's unmailed matches walk one user's events on (user_id, seq), in order", () => {
    for (const sql of [UNMAILED_WALK_END_SQL, UNMAILED_MATCHED_SQL]) {
      const lines = plan(sql);
      expect(lines.join("\n")).toMatch(
        /SEARCH events USING (COVERING )?INDEX events_user_id_seq_idx \(user_id=\? AND seq>\?/,
      );
      expect(fullScans(lines)).toEqual([]);
      expect(lines.join("\n"), "sorted instead of read in order").not.toContain("TEMP B-TREE");
    }
  });

  it("claimDue reads the partial index of pending deliveries in due order, then leases by id", () => {
    const due = plan(DUE_SQL);
    expect(due[0]).toBe(
      "SEARCH webhook_deliveries USING COVERING INDEX webhook_deliveries_pending_due_idx (next_attempt_at<?)",
    );
    expect(due.join("\n"), "sorted instead of read in order").not.toContain("TEMP B-TREE");
    const claim = plan(CLAIM_SQL);
    expect(claim[0]).toBe(
      "SEARCH webhook_deliveries USING INDEX sqlite_autoindex_webhook_deliveries_1 (id=?)",
    );
    expect(fullScans(claim)).toEqual([]);
  });
});

describe("notification reads", () => {
  it("enqueueCoalesced finds the last job about a ref in one seek of its index", () => {
    const lines = plan(ENQUEUE_COALESCED_SQL);
    expect(lines).toContain(
      "SEARCH mail_jobs USING COVERING INDEX mail_jobs_user_id_kind_ref_created_at_idx (user_id=? AND kind=? AND ref=?)",
    );
    expect(fullScans(lines)).toEqual([]);
  });

  it("latestBetween reads one conversation's newest message from its index, with no sort", () => {
    const lines = plan(
      "SELECT * FROM messages WHERE receiver_id = ? AND sender_id = ? AND listing_id = ? ORDER BY id DESC LIMIT 1",
    );
    expect(lines).toEqual([
      "SEARCH messages USING INDEX messages_receiver_id_sender_id_listing_id_id_idx (receiver_id=? AND sender_id=? AND listing_id=?)",
    ]);
  });
});

describe("every statement the repositories prepare", () => {
  it("reads through an index (captured over a run of every repository method)", async () => {
    const seen = new Set<string>();
    const original = Database.prototype.prepare;
    const spy = vi.spyOn(Database.prototype, "prepare").mockImplementation(function (
      this: Database.Database,
      source: string,
    ) {
      seen.add(source);
      return original.call(this, source);
    });
    const storage = await openMigrated(file);
    const repos = storage.repositories;
    const user = buildUser({ createdAt: NOW, email: "plan@example.com" });
    await repos.users.insert(user);
    await repos.users.findById(user.id);
    await repos.users.findByEmail(user.email);
    await repos.users.list({ limit: 5, before: user.id });
    await repos.users.updateProfile(user.id, { displayName: "P" });
    await repos.users.setPasswordHash(user.id, "h", { revokeTokens: true });
    const listing = buildListing({ userId: user.id, createdAt: NOW });
    const event = (type: EventType, n: number): NewEvent => ({
      id: `evt_PLAN${String(n).padStart(22, "0")}`,
      type,
      userId: user.id,
      occurredAt: NOW,
      data: { listing_id: listing.id },
    });
    await repos.listings.insertWithinSlots(listing, { maxSlots: 100, now: NOW }, [
      event("listing.created", 1),
    ]);
    await repos.listings.findById(listing.id);
    await repos.listings.update(listing.id, { title: "x" }, { maxSlots: 100, now: NOW }, [
      event("listing.updated", 2),
    ]);
    await repos.listings.incrementViews(listing.id);
    await repos.listings.countActiveByUsers([user.id], NOW);
    await repos.listings.listAll({ limit: 5 });
    const key = buildApiKey({ userId: user.id, createdAt: NOW });
    await repos.apiKeys.insert(key);
    await repos.apiKeys.findByHash(key.keyHash);
    await repos.apiKeys.list(user.id, { limit: 5, before: key.id });
    await repos.apiKeys.list(undefined, { limit: 5 });
    await repos.apiKeys.touchLastUsed(key.id, NOW, 60_000);
    await repos.messages.insert(buildMessage({ senderId: user.id, receiverId: user.id, createdAt: NOW }), [
      event("message.received", 3),
    ]);
    await repos.events.listFor(user.id, { after: 0, limit: 10 });
    await repos.events.listFor(user.id, { after: 1, limit: 10, types: ["listing.updated"] });
    await repos.messages.list(user.id, "received", { limit: 5, before: key.id });
    await repos.messages.list(user.id, "sent", { limit: 5 });
    await repos.resetTokens.insert({ tokenHash: "t", userId: user.id, expiresAt: NOW, createdAt: NOW });
    await repos.resetTokens.isValid("t", NOW);
    await repos.resetTokens.consume("t", NOW);
    await repos.resetTokens.deleteByUser(user.id);
    await repos.mailQueue.enqueue({ id: key.id, userId: user.id, kind: "password_reset", createdAt: NOW });
    await repos.mailQueue.claimDue(NOW, 5, 1000);
    await repos.mailQueue.countSince(user.id, "password_reset", NOW);
    const coalesced = { userId: user.id, kind: "message_received" as const, ref: `${listing.id}/${user.id}` };
    await repos.mailQueue.enqueueCoalesced({ ...coalesced, id: listing.id, createdAt: NOW }, 60_000);
    const [leased] = await repos.mailQueue.claimDue(NOW, 5, 1000);
    await repos.mailQueue.reschedule(leased!.id, NOW, "retry");
    await repos.mailQueue.markSent(leased!.id, NOW);
    await repos.mailQueue.markFailed(leased!.id, "plan");
    await repos.mailQueue.findById(leased!.id);
    await repos.messages.latestBetween(user.id, user.id, listing.id);
    await repos.notifications.set(user.id, { messageMail: "off", savedSearchMail: "instant" });
    await repos.notifications.get(user.id);
    await repos.unitOfWork.run(async (unit) => {
      await unit.notifications.advanceCursor((await unit.notifications.takeCursor()) ?? 0);
    });
    const webhook = {
      id: key.id,
      userId: user.id,
      url: "https://hooks.example.com/plan",
      types: ["listing.created"] as const,
      description: "",
      enabled: true,
      disabledReason: null,
      secrets: [{ value: "whsec_cGxhbg==", expiresAt: null }],
      createdAt: NOW,
    };
    await repos.webhooks.insertWithinLimit(webhook, 10);
    await repos.webhooks.findById(webhook.id);
    await repos.webhooks.listByUser(user.id, { limit: 5, before: webhook.id });
    await repos.webhooks.listEnabledFor([user.id]);
    await repos.webhooks.update({ ...webhook, description: "d" });
    await repos.events.append([event("webhook.test", 5)]);
    await repos.unitOfWork.run(async (unit) => {
      const cursor = (await unit.webhookDeliveries.takeFanOutCursor()) ?? 0;
      const events = await unit.events.listAfter(cursor, 10);
      await unit.webhookDeliveries.insertMany(
        events.map((fanned, i) => ({
          id: buildUser({ createdAt: new Date(NOW.getTime() + i) }).id,
          webhookId: webhook.id,
          eventId: fanned.id,
          type: fanned.type,
          payload: "{}",
          attempts: 0,
          state: "pending" as const,
          lastStatus: null,
          lastError: null,
          nextAttemptAt: NOW,
          createdAt: NOW,
        })),
      );
      await unit.webhookDeliveries.advanceFanOutCursor(events.at(-1)?.seq ?? cursor);
    });
    const [claimed] = await repos.webhookDeliveries.claimDue(NOW, 5, 1000);
    await repos.webhookDeliveries.record(claimed!.id, {
      state: "succeeded",
      lastStatus: 204,
      lastError: null,
      nextAttemptAt: null,
    });
    await repos.webhookDeliveries.listByWebhook(webhook.id, { limit: 5, before: claimed!.id });
    await repos.webhookDeliveries.backlog(NOW);
    await repos.webhookDeliveries.sweep(NOW);
    await repos.webhooks.disable(webhook.id, "plan");
    await repos.webhooks.delete(webhook.id);
    await repos.listings.delete(listing.id, [event("listing.deleted", 4)]);
    await repos.events.sweep(NOW);
    await repos.users.deleteCascade(user.id);
    await storage.close();
    spy.mockRestore();

    // drizzle's migration journal is a handful of rows read once at start.
    const statements = [...seen].filter(
      (sql) => /^\s*(SELECT|UPDATE|DELETE|WITH)/i.test(sql) && !sql.includes("__drizzle_migrations"),
    );
    expect(statements.length).toBeGreaterThan(20);
    for (const sql of statements) {
      const lines = plan(sql);
      expect(fullScans(lines), sql).toEqual([]);
      expect(lines.join("\n"), sql).not.toContain("TEMP B-TREE");
    }
  });
});

import { buildApiKey, buildListing, buildMessage, buildUser } from "@psm/core/testing";
import { afterAll, describe, expect, it } from "vitest";
import { openConnection } from "./connection.js";
import { openSqliteStorage } from "./index.js";
import { runChild } from "./test-support/child.js";
import { openMigrated, removeTempDbs, tempDbFile } from "./test-support/temp-db.js";

afterAll(removeTempDbs);

const NOW = new Date("2026-03-01T12:00:00.000Z");

describe("durability", () => {
  it("opens every connection with WAL, synchronous FULL, foreign keys and a busy timeout", () => {
    const sqlite = openConnection(tempDbFile());
    expect(sqlite.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(sqlite.pragma("synchronous", { simple: true })).toBe(2); // FULL
    expect(sqlite.pragma("foreign_keys", { simple: true })).toBe(1);
    expect(sqlite.pragma("busy_timeout", { simple: true })).toBeGreaterThanOrEqual(1000);
    sqlite.close();
  });

  it("keeps every written row across close and reopen of the same file", async () => {
    const file = tempDbFile();
    const first = await openMigrated(file);
    const user = buildUser({ createdAt: new Date("2026-03-01T12:00:00.001Z") });
    const listing = buildListing({
      userId: user.id,
      title: "Überprüfung der Datenbank",
      price: 0.1 + 0.2, // a float whose exact bits must survive
      structuredData: { deep: { list: [1, 2.5, "x", null, { y: false }] } },
      expiresAt: new Date("2027-01-01T00:00:00.999Z"),
      createdAt: NOW,
    });
    const key = buildApiKey({
      userId: user.id,
      lastUsed: new Date("2026-03-01T11:00:00.042Z"),
      createdAt: NOW,
    });
    const message = buildMessage({
      listingId: listing.id,
      senderId: user.id,
      receiverId: user.id,
      createdAt: NOW,
    });
    await first.repositories.users.insert(user);
    await first.repositories.listings.insertWithinSlots(listing, { maxSlots: 5, now: NOW });
    await first.repositories.listings.incrementViews(listing.id);
    await first.repositories.apiKeys.insert(key);
    await first.repositories.messages.insert(message);
    await first.close();

    const second = openSqliteStorage({ file });
    await second.migrate();
    expect(await second.repositories.users.findById(user.id)).toEqual(user);
    expect(await second.repositories.listings.findById(listing.id)).toEqual({ ...listing, views: 1 });
    expect(await second.repositories.apiKeys.findByHash(key.keyHash)).toEqual(key);
    expect(await second.repositories.messages.list(user.id, "sent", { limit: 5 })).toEqual([message]);
    const found = await second.repositories.listings.search(
      { text: "PRÜFUNG", status: "active", limit: 5 },
      NOW,
    );
    expect(found.map((row) => row.id)).toEqual([listing.id]);
    await second.close();
  });

  it("keeps an acknowledged write when the process is killed without closing", async () => {
    const file = tempDbFile();
    const userId = "01900000-0000-7000-8000-00000000c0de";
    const listingId = "01900000-0000-7000-8000-00000000c0df";
    const result = await runChild("./child-crash.ts", [file, userId, listingId]);
    expect(result.signal, result.stderr).toBe("SIGKILL");
    const storage = await openMigrated(file);
    expect(await storage.repositories.users.findById(userId)).toMatchObject({ email: "crash@example.com" });
    expect(await storage.repositories.listings.findById(listingId)).toMatchObject({
      title: "Survives a crash",
      structuredData: { nested: { ok: true } },
    });
    const found = await storage.repositories.listings.search(
      { text: "crash", status: "active", limit: 5 },
      NOW,
    );
    expect(found.map((row) => row.id)).toEqual([listingId]);
    await storage.close();
  });
});

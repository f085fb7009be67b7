import { buildListing, buildUser } from "@psm/core/testing";
import { afterAll, expect, it } from "vitest";
import { databaseBefore, insertOldUser } from "../test/database-before.js";
import { openMigrated, removeTempDbs } from "./test-support/temp-db.js";

afterAll(removeTempDbs);

it("upgrade a database from before the event log: its users get events, which go with them", async () => {
  const { file, sqlite } = databaseBefore("0007_events");
  const user = buildUser();
  insertOldUser(sqlite, user);
  sqlite.close();

  const storage = await openMigrated(file);
  try {
    const repos = storage.repositories;
    const listing = buildListing({ userId: user.id });
    const event = {
      id: "evt_01JUPGRADE0000000000000000",
      type: "listing.created" as const,
      userId: user.id,
      occurredAt: listing.createdAt,
      data: { listing_id: listing.id },
    };
    expect(
      await repos.listings.insertWithinSlots(listing, { maxSlots: 10, now: listing.createdAt }, [event]),
    ).toBe(true);
    expect(await repos.events.listFor(user.id, { after: 0, limit: 10 })).toEqual([{ ...event, seq: 1 }]);
    expect(await repos.users.deleteCascade(user.id)).toBe(true);
    expect(await repos.events.listFor(user.id, { after: 0, limit: 10 })).toEqual([]);
  } finally {
    await storage.close();
  }
});

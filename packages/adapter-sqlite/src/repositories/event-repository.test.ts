import type { EventType, NewEvent, User } from "@psm/core";
import { buildListing, buildMessage, buildUser } from "@psm/core/testing";
import { afterAll, describe, expect, it } from "vitest";
import { openMigrated, removeTempDbs } from "../test-support/temp-db.js";

afterAll(removeTempDbs);

const NOW = new Date("2026-03-01T12:00:00.000Z");
const FAR = new Date("2100-01-01T00:00:00.000Z");
const ALL = { after: 0, limit: 100 };
const NO_LIMIT = { maxSlots: 1_000, now: NOW };

let serial = 0;

function eventFor(user: User, type: EventType, listingId: string): NewEvent {
  serial++;
  return {
    id: `evt_SQLITE${String(serial).padStart(20, "0")}`,
    type,
    userId: user.id,
    occurredAt: NOW,
    data: { listing_id: listingId },
  };
}

async function withAuthor() {
  const storage = await openMigrated();
  const user = buildUser({ createdAt: NOW });
  await storage.repositories.users.insert(user);
  return { storage, repos: storage.repositories, user };
}

describe("events on SQLite", () => {
  it("never gives a seq twice, even after a sweep removed the newest events", async () => {
    const { storage, repos, user } = await withAuthor();
    const first = buildListing({ userId: user.id });
    await repos.listings.insertWithinSlots(first, NO_LIMIT, [eventFor(user, "listing.created", first.id)]);
    const [seen] = await repos.events.listFor(user.id, ALL);
    expect(await repos.events.sweep(FAR)).toBe(1);
    const second = buildListing({ userId: user.id });
    await repos.listings.insertWithinSlots(second, NO_LIMIT, [eventFor(user, "listing.created", second.id)]);
    // A reader that polls with the last seq it saw still finds the new event.
    expect(
      (await repos.events.listFor(user.id, { after: seen!.seq, limit: 100 })).map((e) => e.data.listing_id),
    ).toEqual([second.id]);
    await storage.close();
  });

  it("in a group commit, a member rolled back takes its events along; the others' seqs follow arrival order", async () => {
    const { storage, repos, user } = await withAuthor();
    const taken = buildListing({ userId: user.id });
    await repos.listings.insertWithinSlots(taken, NO_LIMIT);
    const [a, b] = [buildListing({ userId: user.id }), buildListing({ userId: user.id })];
    const settled = await Promise.allSettled([
      repos.listings.insertWithinSlots(a, NO_LIMIT, [eventFor(user, "listing.created", a.id)]),
      repos.listings.insertWithinSlots(taken, NO_LIMIT, [eventFor(user, "listing.created", taken.id)]),
      repos.listings.insertWithinSlots(b, NO_LIMIT, [eventFor(user, "listing.created", b.id)]),
    ]);
    expect(settled.map((s) => s.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    const events = await repos.events.listFor(user.id, ALL);
    expect(events.map((e) => e.data.listing_id)).toEqual([a.id, b.id]);
    await storage.close();
  });

  it("a refused message writes none of its events; a failed event write refuses the message", async () => {
    const { storage, repos, user } = await withAuthor();
    const message = buildMessage({ receiverId: user.id, createdAt: NOW });
    await repos.messages.insert(message);
    // The same message id again: the insert fails, and the event with it.
    await expect(
      repos.messages.insert(message, [eventFor(user, "message.received", message.listingId)]),
    ).rejects.toThrow();
    // An event for a user that does not exist (the foreign key): the message is not stored either.
    const orphan = buildMessage({ receiverId: user.id, createdAt: NOW });
    const ghost = buildUser();
    await expect(
      repos.messages.insert(orphan, [eventFor(ghost, "message.received", orphan.listingId)]),
    ).rejects.toThrow();
    expect((await repos.messages.list(user.id, "received", { limit: 10 })).map((m) => m.id)).toEqual([
      message.id,
    ]);
    expect(await repos.events.listFor(user.id, ALL)).toEqual([]);
    await storage.close();
  });

  it("sweeps a log larger than one step, and answers the whole count", async () => {
    const { storage, repos, user } = await withAuthor();
    const message = buildMessage({ receiverId: user.id, createdAt: NOW });
    const many = Array.from({ length: 2_345 }, () => eventFor(user, "message.received", message.listingId));
    await repos.messages.insert(message, many);
    expect(await repos.events.sweep(FAR)).toBe(2_345);
    expect(await repos.events.listFor(user.id, ALL)).toEqual([]);
    await storage.close();
  });
});

import { buildApiKey, buildListing, buildMessage, buildUser } from "@psm/core/testing";
import { expect, it } from "vitest";
import { describePostgres } from "../../test/hooks.js";
import { untilLockWaits } from "../../test/lock-waits.js";
import { openPostgresStorage } from "../index.js";

const NOW = new Date("2026-03-01T12:00:00.000Z");

describePostgres("postgres reads pool", (ctx) => {
  it("answers signed-in reads while writes wait on every connection of their pool", async () => {
    // poolMax 4: one connection for the short reads, three for the rest.
    const storage = openPostgresStorage({ url: ctx.database().url, poolMax: 4 });
    const { users, apiKeys, messages, listings, events } = storage.repositories;
    const owner = buildUser();
    const peer = buildUser();
    await users.insert(owner);
    await users.insert(peer);
    const key = buildApiKey({ userId: owner.id });
    await apiKeys.insert(key);
    const listing = buildListing({ userId: owner.id, title: "Tax advice" });
    await listings.insertWithinSlots(listing, { maxSlots: 10, now: NOW });
    await messages.insert(buildMessage({ senderId: peer.id, receiverId: owner.id, listingId: listing.id }));
    // The writes' stand-in for a slow commit: message inserts wait on this lock, reads do not.
    const admin = ctx.connection(2).sql;
    const holder = await admin.reserve();
    await holder`begin`;
    await holder`lock table messages in exclusive mode`;
    const blocked = Array.from({ length: 5 }, () =>
      messages.insert(buildMessage({ senderId: peer.id, receiverId: owner.id, listingId: listing.id })),
    );
    try {
      // All three write connections blocked on the lock, two more inserts queued.
      expect(await untilLockWaits(admin, "psm", 3)).toBe(3);
      // What a signed-in request reads comes back meanwhile, on the reads pool.
      const found = await apiKeys.findByHashWithUser?.(key.keyHash);
      expect(found?.user?.id).toBe(owner.id);
      expect((await apiKeys.list(owner.id, { limit: 20 })).map((k) => k.id)).toEqual([key.id]);
      expect(await messages.list(owner.id, "received", { limit: 20 })).toHaveLength(1);
      expect((await users.findById(owner.id))?.id).toBe(owner.id);
      expect((await listings.findById(listing.id))?.title).toBe("Tax advice");
      const page = await listings.search({ status: "active", userId: owner.id, limit: 20 }, NOW);
      expect(page.map((l) => l.id)).toEqual([listing.id]);
      expect(await events.listFor(owner.id, { after: 0, limit: 20 })).toEqual([]);
      const [reads] = await admin<{ n: number }[]>`select count(*)::int as n from pg_stat_activity
        where datname = current_database() and application_name = 'psm-reads'`;
      expect(reads?.n).toBe(1);
    } finally {
      await holder`commit`;
      holder.release();
    }
    await Promise.all(blocked);
    // Acknowledged writes are seen by the next read, whichever pool it runs on.
    expect(await messages.list(owner.id, "received", { limit: 20 })).toHaveLength(6);
    await storage.close();
  });

  it("reads a unit of work's own writes inside it, before they commit", async () => {
    const storage = openPostgresStorage({ url: ctx.database().url, poolMax: 6 });
    const owner = buildUser();
    await storage.repositories.users.insert(owner);
    const key = buildApiKey({ userId: owner.id });
    const seen = await storage.repositories.unitOfWork.run(async (repos) => {
      await repos.apiKeys.insert(key);
      const outside = await storage.repositories.apiKeys.findByHash(key.keyHash);
      const inside = await repos.apiKeys.findByHashWithUser?.(key.keyHash);
      const listed = await repos.apiKeys.list(owner.id, { limit: 20 });
      return { outside, inside, listed: listed.map((k) => k.id) };
    });
    expect(seen.outside).toBeNull();
    expect(seen.inside?.key.id).toBe(key.id);
    expect(seen.listed).toEqual([key.id]);
    expect((await storage.repositories.apiKeys.findByHash(key.keyHash))?.id).toBe(key.id);
    await storage.close();
  });
});

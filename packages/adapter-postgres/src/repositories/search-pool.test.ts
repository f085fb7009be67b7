import { buildListing, buildMessage, buildUser } from "@psm/core/testing";
import { expect, it } from "vitest";
import { describePostgres } from "../../test/hooks.js";
import { untilLockWaits } from "../../test/lock-waits.js";
import { openPostgresStorage } from "../index.js";

const NOW = new Date("2026-03-01T12:00:00.000Z");

describePostgres("postgres search pool", (ctx) => {
  it("leaves writes their pool while searches hold every connection of theirs", async () => {
    // Two connections each; searches bounded only far beyond the test, so they wait as long as held.
    const storage = openPostgresStorage({
      url: ctx.database().url,
      poolMax: 2,
      searchPoolMax: 2,
      searchTimeoutMs: 600_000,
    });
    const admin = ctx.connection(2).sql;
    const author = buildUser();
    await storage.repositories.users.insert(author);
    await storage.repositories.listings.insertWithinSlots(
      buildListing({ userId: author.id, title: "Audit" }),
      {
        maxSlots: 10,
        now: NOW,
      },
    );
    // The hostile searches' stand-in: every search waits on this lock until it is released.
    const holder = await admin.reserve();
    await holder`begin`;
    await holder`lock table listings in access exclusive mode`;
    const { listings } = storage.repositories;
    const searches = Promise.all([
      listings.search({ status: "active", text: "audit", limit: 20 }, NOW),
      listings.find({ status: "active", words: ["audit"], sort: "relevance", limit: 20 }, NOW),
      listings.countByCategory({ status: "active", words: ["audit"] }, 100, NOW),
      listings.search({ status: "active", text: "aud", limit: 20 }, NOW),
    ] as const);
    try {
      // Both search connections blocked on the lock, two more searches queued.
      expect(await untilLockWaits(admin, "psm-search", 2)).toBe(2);
      expect(storage.searchPool).toMatchObject({ size: 2, inFlight: 4 });
      // Writes (more of them than the write pool's connections) commit meanwhile.
      const others = [buildUser(), buildUser(), buildUser()];
      await Promise.all(others.map((user) => storage.repositories.users.insert(user)));
      const message = buildMessage({ senderId: others[0]!.id, receiverId: author.id });
      await storage.repositories.messages.insert(message);
      const [committed] = await admin<{ n: number }[]>`select count(*)::int as n from users`;
      expect(committed?.n).toBe(4);
      expect(storage.searchPool.inFlight).toBe(4);
    } finally {
      await holder`commit`;
      holder.release();
    }
    const [found, ranked, counts, short] = await searches;
    expect(found.map((listing) => listing.title)).toEqual(["Audit"]);
    expect(ranked.map((hit) => hit.listing.title)).toEqual(["Audit"]);
    expect(Object.values(counts.counts)).toEqual([1]);
    expect(short.map((listing) => listing.title)).toEqual(["Audit"]);
    expect(storage.searchPool.inFlight).toBe(0);
    await storage.close();
  });
});

import type { Listing } from "@psm/core";
import { buildListing, buildUser } from "@psm/core/testing";
import { expect, it } from "vitest";
import { eventFor, lastSeq } from "../../test/event-support.js";
import { forcedDeadlock } from "../../test/forced-deadlock.js";
import { describePostgres } from "../../test/hooks.js";
import { insertHelpers, NO_LIMIT, NOW, noFallback, outcome } from "../../test/insert-support.js";
import { causeCode } from "../../test/sqlstate.js";
import { createInsertBatcher } from "./listing-insert-batcher.js";

describePostgres("postgres listing inserts (group commit): failures", (ctx) => {
  const { authors, storedIds, storedCount } = insertHelpers(ctx);

  it("a duplicate id rejects only itself, as guarded() maps it; the rest of its batch is stored", async () => {
    const [author] = await authors(1);
    const { listings } = ctx.storage(2).repositories;
    const kept = buildListing({ userId: author!.id });
    await listings.insertWithinSlots(kept, NO_LIMIT);
    const fresh = Array.from({ length: 4 }, () => buildListing({ userId: author!.id }));
    const twice = buildListing({ userId: author!.id });
    const results = await Promise.allSettled([
      listings.insertWithinSlots(fresh[0]!, NO_LIMIT),
      listings.insertWithinSlots({ ...kept, title: "Second take" }, NO_LIMIT),
      listings.insertWithinSlots(fresh[1]!, NO_LIMIT),
      listings.insertWithinSlots(twice, NO_LIMIT),
      listings.insertWithinSlots({ ...twice, id: twice.id.toUpperCase(), title: "Again" }, NO_LIMIT),
      listings.insertWithinSlots(fresh[2]!, NO_LIMIT),
      // Full: the stored one and the four above.
      listings.insertWithinSlots(fresh[3]!, { maxSlots: 5, now: NOW }),
    ]);
    expect(results.map(outcome)).toEqual([true, "internal_error", true, true, "internal_error", true, false]);
    const rejected = results.flatMap((result) => (result.status === "rejected" ? [result.reason] : []));
    expect(rejected.map(causeCode)).toEqual(["23505", "23505"]);
    expect(await listings.findById(kept.id)).toEqual(kept);
    expect(await listings.findById(twice.id)).toEqual(twice);
    expect(await storedIds([...fresh, kept, twice].map((l) => l.id))).toEqual(
      [fresh[0], fresh[1], fresh[2], kept, twice].map((l) => l!.id).sort(),
    );
  });

  it("a member whose author does not exist rejects as user_not_found (false when full); the others are stored", async () => {
    const [author] = await authors(1);
    const ghost = buildUser();
    const { listings } = ctx.storage(2).repositories;
    const mine = [buildListing({ userId: author!.id }), buildListing({ userId: author!.id })];
    const results = await Promise.allSettled([
      listings.insertWithinSlots(mine[0]!, NO_LIMIT),
      listings.insertWithinSlots(buildListing({ userId: ghost.id }), NO_LIMIT),
      listings.insertWithinSlots(buildListing({ userId: ghost.id }), { maxSlots: 0, now: NOW }),
      listings.insertWithinSlots(mine[1]!, NO_LIMIT),
    ]);
    expect(results.map(outcome)).toEqual([true, "user_not_found", false, true]);
    expect(await storedCount(author!.id)).toBe(2);
    expect(await storedCount(ghost.id)).toBe(0);
  });

  it("a failed COMMIT rejects every member, stores none (nor their events), and the next batch goes on", async () => {
    const [author] = await authors(1);
    const { listings, events } = ctx.storage(2).repositories;
    const { sql } = ctx.connection();
    const from = await lastSeq(ctx.connection());
    // Deferred: the row is inserted, and the COMMIT is what fails.
    await sql.unsafe(`
      create function refuse_commit() returns trigger language plpgsql as
        $$ begin raise exception 'refused at commit'; end $$;
      create constraint trigger refuse_commit after insert on listings deferrable initially deferred
        for each row when (new.title = 'refused at commit') execute function refuse_commit();`);
    const made = [
      buildListing({ userId: author!.id }),
      buildListing({ userId: author!.id, title: "refused at commit" }),
      buildListing({ userId: author!.id }),
    ];
    let results: PromiseSettledResult<boolean>[];
    try {
      results = await Promise.allSettled(
        made.map((listing) =>
          listings.insertWithinSlots(listing, NO_LIMIT, [
            eventFor(author!.id, "listing.created", { listing_id: listing.id }),
          ]),
        ),
      );
    } finally {
      await sql.unsafe("drop trigger refuse_commit on listings; drop function refuse_commit();");
    }
    expect(results.map(outcome)).toEqual(["internal_error", "internal_error", "internal_error"]);
    expect(results.map((result) => result.status === "rejected" && causeCode(result.reason))).toEqual([
      "P0001",
      "P0001",
      "P0001",
    ]);
    expect(await storedCount(author!.id)).toBe(0);
    // The counter rolled back with them: the next event takes the very next seq.
    const next = eventFor(author!.id, "listing.created", { listing_id: made[0]!.id });
    expect(await listings.insertWithinSlots(made[0]!, NO_LIMIT, [next])).toBe(true);
    expect(await events.listFor(author!.id, { after: 0, limit: 100 })).toMatchObject([
      { id: next.id, seq: from + 1 },
    ]);
  });

  // A rival transaction holds what the batch wants next and waits for an author the batch holds:
  // a true deadlock, built by lock order so that the batch is always the victim (forced-deadlock.ts).
  async function deadlocked(deadlockRetries: number) {
    const [a, b] = await authors(2);
    const insert = createInsertBatcher(ctx.connection(1).db, noFallback, { deadlockRetries });
    const made: Listing[] = [buildListing({ userId: b!.id }), buildListing({ userId: a!.id })];
    const results = await forcedDeadlock(() => ctx.connection(1), {
      event: "before insert",
      when: `new.user_id in ('${a!.id}', '${b!.id}')`,
      rivalWaits: (tx) => tx`select id from users where id = ${a!.id} for update`,
      batch: () =>
        Promise.allSettled(
          made.map((listing) =>
            insert(listing, NO_LIMIT, [
              eventFor(listing.userId, "listing.created", { listing_id: listing.id }),
            ]),
          ),
        ),
    });
    const [row] = await ctx.connection().sql<{ ids: string[] }[]>`
      select coalesce(array_agg(data->>'listing_id' order by seq), '{}') as ids from events
      where user_id in (${a!.id}, ${b!.id})`;
    return { results, stored: await storedIds(made.map((listing) => listing.id)), events: row!.ids };
  }

  it("a batch chosen as a deadlock victim is written again and stores each member and its event once", async () => {
    const { results, stored, events } = await deadlocked(3);
    expect(results.map(outcome)).toEqual([true, true]);
    expect(stored).toHaveLength(2);
    expect([...events].sort()).toEqual(stored);
  });

  it("without retries, the same deadlock rejects the batch's members, storing none", async () => {
    const { results, stored, events } = await deadlocked(0);
    expect(results.map(outcome)).toEqual(["internal_error", "internal_error"]);
    expect(results.map((result) => result.status === "rejected" && causeCode(result.reason))).toEqual([
      "40P01",
      "40P01",
    ]);
    expect(stored).toEqual([]);
    expect(events).toEqual([]);
  });
});

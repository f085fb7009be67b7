import { isMarketplaceError, type Listing, type SlotGuard, type User } from "@psm/core";
import { buildListing, buildUser } from "@psm/core/testing";
import { expect, it } from "vitest";
import { lockWaiters, statementsDuring } from "../../test/batch-support.js";
import { describePostgres } from "../../test/hooks.js";
import { causeCode } from "../../test/sqlstate.js";
import { createInsertBatcher, type InsertOne } from "./listing-insert-batcher.js";

const NOW = new Date("2026-03-01T12:00:00.000Z");
const HOUR = 3_600_000;
const at = (ms: number) => new Date(NOW.getTime() + ms);
const NO_LIMIT: SlotGuard = { maxSlots: 1_000_000, now: NOW };

/** The next turn of the event loop: what was called before it is one batch. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** For batchers built directly: the batch itself must answer, never the one-at-a-time path. */
const noFallback: InsertOne = () => Promise.reject(new Error("fell back to one-at-a-time inserts"));

/** The error code a settled call rejected with, or its value. */
function outcome(result: PromiseSettledResult<boolean>): boolean | string {
  if (result.status === "fulfilled") return result.value;
  const reason: unknown = result.reason;
  return isMarketplaceError(reason) ? reason.code : String(reason);
}

describePostgres("postgres listing inserts (group commit)", (ctx) => {
  /** `count` new users, sorted by id (the order a batch locks them in). */
  async function authors(count: number): Promise<User[]> {
    const { users } = ctx.storage(1).repositories;
    const made = Array.from({ length: count }, () => buildUser());
    for (const user of made) await users.insert(user);
    return made.sort((a, b) => (a.id < b.id ? -1 : 1));
  }

  /** The stored ids among `ids`, read on a pool of its own. */
  async function storedIds(ids: string[]): Promise<string[]> {
    const { sql } = ctx.connection();
    const rows = await sql<{ id: string }[]>`select id from listings where id = any(${ids}::uuid[])`;
    return rows.map((row) => row.id).sort();
  }

  /** The author's stored listings, read on a pool of its own. */
  async function storedCount(userId: string): Promise<number> {
    const { sql } = ctx.connection();
    const [row] = await sql<
      { n: number }[]
    >`select count(*)::int as n from listings where user_id = ${userId}`;
    return row?.n ?? -1;
  }

  it("the inserts of one turn are one INSERT; each resolves true and is readable when it does", async () => {
    const [author] = await authors(1);
    const { listings } = ctx.storage(2).repositories;
    const made = Array.from({ length: 40 }, () => buildListing({ userId: author!.id }));
    const { sql } = ctx.connection();
    const seen: boolean[] = [];
    const statements = await statementsDuring(ctx.connection(), "insert", async () => {
      await Promise.all(
        made.map(async (listing) => {
          expect(await listings.insertWithinSlots(listing, NO_LIMIT)).toBe(true);
          // Read on another connection as soon as the call answers: it answered after its COMMIT.
          const rows = await sql`select id from listings where id = ${listing.id}`;
          seen.push(rows.length === 1);
        }),
      );
    });
    expect(statements).toBe(1);
    expect(seen).toEqual(made.map(() => true));
    expect(await listings.findById(made[0]!.id)).toEqual(made[0]);
  });

  it("a batch carries at most maxMembers inserts; inserts arriving meanwhile join the batch still waiting", async () => {
    const [author] = await authors(1);
    const insert = createInsertBatcher(ctx.connection(2).db, noFallback, { maxMembers: 2 });
    const made = Array.from({ length: 6 }, () => buildListing({ userId: author!.id }));
    const statements = await statementsDuring(ctx.connection(), "insert", async () => {
      // One turn, five inserts: three statements of at most two.
      const first = made.slice(0, 5).map((listing) => insert(listing, NO_LIMIT));
      await nextTurn();
      // The first statement is in flight now; the last one, with one insert, takes this one.
      const later = made.slice(5).map((listing) => insert(listing, NO_LIMIT));
      expect(await Promise.all([...first, ...later])).toEqual(made.map(() => true));
    });
    expect(statements).toBe(3);
    expect(await storedCount(author!.id)).toBe(6);
  });

  // Two pools as two server processes, three authors with their own limits, many
  // batches: every author ends with exactly its slots, each acknowledged and readable.
  it("600 concurrent inserts from two pools for three authors store exactly each author's maxSlots", async () => {
    const people = await authors(3);
    const slots = [25, 1, 40];
    const pools = [ctx.storage(4).repositories.listings, ctx.storage(4).repositories.listings];
    const { sql } = ctx.connection(2);
    const calls: Promise<{ userId: string; inserted: boolean; readable: boolean }>[] = [];
    for (let i = 0; i < 600; i++) {
      const k = (i * 7) % 3;
      const listing = buildListing({ userId: people[k]!.id });
      const call = pools[i % 2]!.insertWithinSlots(listing, { maxSlots: slots[k]!, now: NOW });
      calls.push(
        call.then(async (inserted) => {
          const rows = await sql`select id from listings where id = ${listing.id}`;
          return { userId: listing.userId, inserted, readable: rows.length === 1 };
        }),
      );
      if (i % 50 === 49) await nextTurn();
    }
    const results = await Promise.all(calls);
    for (const [k, person] of people.entries()) {
      const mine = results.filter((result) => result.userId === person.id);
      expect(mine.filter((result) => result.inserted)).toHaveLength(slots[k]!);
      expect(mine.every((result) => result.readable === result.inserted)).toBe(true);
      expect(await storedCount(person.id)).toBe(slots[k]);
    }
  });

  // The batch's lock waits behind a transaction that inserts for the author; its
  // count, a statement of its own, starts after that commit and so sees it.
  it("counts what a transaction holding the author's lock committed while the batch waited for it", async () => {
    const [author] = await authors(1);
    const { listings } = ctx.storage(2).repositories;
    const other = ctx.connection(1).sql;
    let holding: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      holding = resolve;
    });
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const transaction = other.begin(async (tx) => {
      await tx`select id from users where id = ${author!.id} for update`;
      for (let i = 0; i < 2; i++) {
        await tx`insert into listings (id, user_id, title, title_folded, description, category, condition,
            images, status, created_at)
          values (gen_random_uuid(), ${author!.id}, 'held', 'held', 'd', 'cybersecurity', 'new', '[]', 'active', now())`;
      }
      holding();
      await released;
    });
    await held;
    const guard = { maxSlots: 3, now: NOW };
    const batch = Array.from({ length: 3 }, () =>
      listings.insertWithinSlots(buildListing({ userId: author!.id }), guard),
    );
    await lockWaiters(ctx.connection(), 1);
    release();
    await transaction;
    expect(await Promise.all(batch)).toEqual([true, false, false]);
    expect(await storedCount(author!.id)).toBe(3);
  });

  it("each member counts at its own now: stored listings and the batch's earlier ones, as one-at-a-time inserts do", async () => {
    const [batched, single] = await authors(2);
    const { listings, unitOfWork } = ctx.storage(2).repositories;
    const stored = (userId: string) => [
      buildListing({ userId, expiresAt: at(HOUR) }),
      buildListing({ userId, expiresAt: at(3 * HOUR) }),
      buildListing({ userId, expiresAt: null }),
      buildListing({ userId, status: "paused", expiresAt: null }),
    ];
    // [now, the new listing's expiry] in arrival order; maxSlots 4 for all.
    const members: [number, number | null][] = [
      [2 * HOUR, 2.5 * HOUR], // B, C stored: 2 -> in
      [0, null], // A, B, C and the first: 4 -> out
      [4 * HOUR, null], // C: 1 -> in
      [2 * HOUR, null], // B, C, the first, the third: 4 -> out
      [3 * HOUR, null], // B expires at exactly 3 h, not counted; C, the third: 2 -> in
    ];
    const run = (userId: string) =>
      members.map(([now, expiry]) => ({
        listing: buildListing({ userId, expiresAt: expiry === null ? null : at(expiry) }),
        guard: { maxSlots: 4, now: at(now) },
      }));
    for (const listing of [...stored(batched!.id), ...stored(single!.id)]) {
      await listings.insertWithinSlots(listing, NO_LIMIT);
    }
    // All in one batch.
    const inBatch = await Promise.all(
      run(batched!.id).map(({ listing, guard }) => listings.insertWithinSlots(listing, guard)),
    );
    // One at a time, as today: inside a unit, each insert is its own locked count and insert.
    const oneByOne = await unitOfWork.run(async (repos) => {
      const answers: boolean[] = [];
      for (const { listing, guard } of run(single!.id)) {
        answers.push(await repos.listings.insertWithinSlots(listing, guard));
      }
      return answers;
    });
    expect(oneByOne).toEqual([true, false, true, false, true]);
    expect(inBatch).toEqual(oneByOne);
    expect(await storedCount(batched!.id)).toBe(4 + 3);
  });

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

  it("a failed COMMIT rejects every member, stores none, and the next batch goes on", async () => {
    const [author] = await authors(1);
    const { listings } = ctx.storage(2).repositories;
    const { sql } = ctx.connection();
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
        made.map((listing) => listings.insertWithinSlots(listing, NO_LIMIT)),
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
    expect(await listings.insertWithinSlots(made[0]!, NO_LIMIT)).toBe(true);
  });

  // Another transaction holds the second author and then wants the first, which the batch
  // holds: a true deadlock. The batch waited first, so its check (deadlock_timeout later)
  // finds the cycle first and makes it the victim.
  async function deadlocked(deadlockRetries: number) {
    const [a, b] = await authors(2);
    const insert = createInsertBatcher(ctx.connection(1).db, noFallback, { deadlockRetries });
    const other = ctx.connection(1).sql;
    let holding: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      holding = resolve;
    });
    const transaction = other.begin(async (tx) => {
      await tx`select id from users where id = ${b!.id} for update`;
      holding();
      await lockWaiters(ctx.connection(), 1);
      await tx`select id from users where id = ${a!.id} for update`;
    });
    await held;
    const made: Listing[] = [buildListing({ userId: b!.id }), buildListing({ userId: a!.id })];
    const results = await Promise.allSettled(made.map((listing) => insert(listing, NO_LIMIT)));
    await transaction;
    return { results, stored: await storedIds(made.map((listing) => listing.id)) };
  }

  it("a batch chosen as a deadlock victim is written again and stores each member once", async () => {
    const { results, stored } = await deadlocked(3);
    expect(results.map(outcome)).toEqual([true, true]);
    expect(stored).toHaveLength(2);
  });

  it("without retries, the same deadlock rejects the batch's members, storing none", async () => {
    const { results, stored } = await deadlocked(0);
    expect(results.map(outcome)).toEqual(["internal_error", "internal_error"]);
    expect(results.map((result) => result.status === "rejected" && causeCode(result.reason))).toEqual([
      "40P01",
      "40P01",
    ]);
    expect(stored).toEqual([]);
  });

  it("inside a unit of work an insert is the unit's: unseen until it commits, gone when it rolls back", async () => {
    const [author] = await authors(1);
    const { unitOfWork } = ctx.storage(2).repositories;
    const listing = buildListing({ userId: author!.id });
    const rollback = new Error("roll back");
    await expect(
      unitOfWork.run(async (repos) => {
        expect(await repos.listings.insertWithinSlots(listing, NO_LIMIT)).toBe(true);
        // Seen inside the transaction, not outside: no batch committed it.
        expect(await repos.listings.findById(listing.id)).toEqual(listing);
        expect(await storedIds([listing.id])).toEqual([]);
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    expect(await storedIds([listing.id])).toEqual([]);
    await unitOfWork.run(async (repos) => {
      expect(await repos.listings.insertWithinSlots(listing, { maxSlots: 1, now: NOW })).toBe(true);
      expect(
        await repos.listings.insertWithinSlots(buildListing({ userId: author!.id }), {
          maxSlots: 1,
          now: NOW,
        }),
      ).toBe(false);
    });
    expect(await storedIds([listing.id])).toEqual([listing.id]);
  });
});

import { buildListing } from "@psm/core/testing";
import { expect, it } from "vitest";
import { statementsDuring } from "../../test/batch-support.js";
import { describePostgres } from "../../test/hooks.js";
import { insertHelpers, NO_LIMIT, NOW, nextTurn, noFallback } from "../../test/insert-support.js";
import { createInsertBatcher } from "./listing-insert-batcher.js";

describePostgres("postgres listing inserts (group commit)", (ctx) => {
  const { authors, storedIds, storedCount } = insertHelpers(ctx);

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

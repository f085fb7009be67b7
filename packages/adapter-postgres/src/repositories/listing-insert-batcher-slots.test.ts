import { buildListing } from "@psm/core/testing";
import { expect, it } from "vitest";
import { lockWaiters } from "../../test/batch-support.js";
import { describePostgres } from "../../test/hooks.js";
import { at, HOUR, insertHelpers, NO_LIMIT, NOW } from "../../test/insert-support.js";

describePostgres("postgres listing inserts (group commit): slots", (ctx) => {
  const { authors, storedCount } = insertHelpers(ctx);

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
});

import { isMarketplaceError, type Listing } from "@psm/core";
import { buildListing, buildUser, testId } from "@psm/core/testing";
import { expect, it } from "vitest";
import { statementsDuring } from "../../test/batch-support.js";
import { forcedDeadlock } from "../../test/forced-deadlock.js";
import { describePostgres } from "../../test/hooks.js";
import { causeCode } from "../../test/sqlstate.js";
import { openPostgresStorage } from "../index.js";
import { createViewBatcher } from "./view-batcher.js";

const NOW = new Date("2026-03-01T12:00:00.000Z");

/** The next turn of the event loop: what was called before it is one batch. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describePostgres("postgres view increments (group commit)", (ctx) => {
  /** `count` listings of one new author, sorted by id (the order the batch locks them in). */
  async function seeded(count: number): Promise<Listing[]> {
    const { users, listings } = ctx.storage(1).repositories;
    const user = buildUser();
    await users.insert(user);
    const made = Array.from({ length: count }, () => buildListing({ userId: user.id, views: 0 }));
    for (const listing of made) await listings.insertWithinSlots(listing, { maxSlots: 1_000, now: NOW });
    return made.sort((a, b) => (a.id < b.id ? -1 : 1));
  }

  /** The stored views of each listing, read on a pool of its own. */
  async function viewsOf(listings: Listing[]): Promise<number[]> {
    const { sql } = ctx.connection();
    const rows = await sql<{ id: string; views: number }[]>`
      select id, views from listings where id = any(${listings.map((l) => l.id)}::uuid[])`;
    const byId = new Map(rows.map((row) => [row.id, row.views]));
    return listings.map((listing) => byId.get(listing.id) ?? -1);
  }

  /**
   * Listings enough that PostgreSQL, as in production, reaches rows through the
   * id index in the order of the ids it was given, rather than hashing a small table.
   */
  async function padListings(userId: string, count: number): Promise<void> {
    const { sql } = ctx.connection();
    await sql`
      insert into listings (id, user_id, title, title_folded, description, category, condition, images,
        status, created_at)
      select gen_random_uuid(), ${userId}, 'padding', 'padding', 'd', 'cybersecurity', 'new', '[]', 'paused', now()
      from generate_series(1, ${count})`;
    await sql`analyze listings`;
  }

  it("the views of one turn are one statement; each counts, in any case of its id, and unknown ids answer false", async () => {
    const [a, b] = await seeded(2);
    if (!a || !b) throw new Error("seeded two listings");
    const { listings } = ctx.storage(4).repositories;
    let found: boolean[] = [];
    const statements = await statementsDuring(ctx.connection(), "update", async () => {
      found = await Promise.all([
        ...Array.from({ length: 200 }, () => listings.incrementViews(a.id)),
        ...Array.from({ length: 50 }, () => listings.incrementViews(b.id)),
        // The same row in capitals: joined twice, one of the two counts would be lost.
        ...Array.from({ length: 49 }, () => listings.incrementViews(b.id.toUpperCase())),
        listings.incrementViews(testId()),
      ]);
    });
    expect(statements).toBe(1);
    expect(found.slice(0, 299).every((hit) => hit)).toBe(true);
    expect(found[299]).toBe(false);
    expect(await viewsOf([a, b])).toEqual([200, 99]);
  });

  it("a batch carries at most maxIds listings; views arriving meanwhile join the batch still waiting", async () => {
    const made = await seeded(5);
    const views = createViewBatcher(ctx.connection(2).db, { maxIds: 2 });
    const statements = await statementsDuring(ctx.connection(), "update", async () => {
      // One turn, five listings: three statements of at most two.
      const first = made.flatMap((listing, i) => Array.from({ length: i + 1 }, () => views(listing.id)));
      await nextTurn();
      // The first statement is in flight now; the last one, with one listing, takes these.
      const later = [views(made[0]!.id), views(made[0]!.id)];
      expect(await Promise.all([...first, ...later])).not.toContain(false);
    });
    expect(statements).toBe(3);
    expect(await viewsOf(made)).toEqual([3, 2, 3, 4, 5]);
  });

  // Two pools as two server processes; opposite and shuffled orders, small batches and
  // several in flight, so that many batches over overlapping rows race. Without retries,
  // a deadlock would reject its views and fail the test: a plain UPDATE ... FROM unnest(...),
  // which locks rows in the order of its list, did so on every run.
  it("2,000 concurrent views from two pools over overlapping ids in differing orders add up exactly, without a deadlock", async () => {
    const made = await seeded(6);
    await padListings(made[0]!.userId, 20_000);
    const pools = [0, 1].map(() =>
      createViewBatcher(ctx.connection(4).db, { maxIds: 4, maxInFlight: 4, deadlockRetries: 0 }),
    );
    const expected = made.map(() => 0);
    const calls: Promise<boolean>[] = [];
    for (let wave = 0; wave < 40; wave++) {
      for (let i = 0; i < 50; i++) {
        const pool = (wave + i) % 2;
        const k =
          pool === 0 ? (i * 5 + wave) % made.length : made.length - 1 - ((i * 7 + wave) % made.length);
        expected[k] = (expected[k] ?? 0) + 1;
        calls.push(pools[pool]!(made[k]!.id));
      }
      if (wave % 4 === 3) await nextTurn();
    }
    expect(calls).toHaveLength(2_000);
    const settled = await Promise.allSettled(calls);
    const failed = settled.flatMap((result) =>
      result.status === "rejected" ? [causeCode(result.reason)] : [],
    );
    expect(failed).toEqual([]);
    expect(settled.every((result) => result.status === "fulfilled" && result.value)).toBe(true);
    expect(await viewsOf(made)).toEqual(expected);
  });

  it("through the storages of two processes, 2,000 concurrent views add up exactly", async () => {
    const made = await seeded(3);
    const storages = [0, 1].map(() => ctx.storage(4).repositories.listings);
    const calls = Array.from({ length: 2_000 }, (_, i) =>
      storages[i % 2]!.incrementViews(made[(i % 2 === 0 ? i : 2_000 - i) % 3]!.id),
    );
    expect(await Promise.all(calls)).not.toContain(false);
    const views = await viewsOf(made);
    expect(views.reduce((sum, n) => sum + n, 0)).toBe(2_000);
    expect(views).toEqual([667, 667, 666]);
  });

  // A rival transaction holds what the batch wants next and waits for a row the batch holds:
  // a true deadlock, built by lock order so that the batch is always the victim (forced-deadlock.ts).
  async function deadlocked(deadlockRetries: number) {
    const [a, b] = await seeded(2);
    if (!a || !b) throw new Error("seeded two listings");
    const views = createViewBatcher(ctx.connection(1).db, { deadlockRetries });
    const results = await forcedDeadlock(() => ctx.connection(1), {
      event: "before update of views",
      when: `old.id in ('${a.id}', '${b.id}')`,
      rivalWaits: (tx) => tx`update listings set views = views + 1 where id = ${a.id}`,
      batch: () => Promise.allSettled([views(b.id), views(a.id), views(a.id)]),
    });
    return { results, views: await viewsOf([a, b]) };
  }

  it("a batch chosen as a deadlock victim is written again and counts once", async () => {
    const { results, views } = await deadlocked(3);
    expect(results.map((result) => result.status === "fulfilled" && result.value)).toEqual([
      true,
      true,
      true,
    ]);
    expect(views).toEqual([3, 1]);
  });

  it("without retries, the same deadlock rejects the batch's views, counting none", async () => {
    const { results, views } = await deadlocked(0);
    for (const result of results) {
      expect(result.status).toBe("rejected");
      const reason: unknown = result.status === "rejected" ? result.reason : undefined;
      expect(isMarketplaceError(reason, "internal_error")).toBe(true);
      expect(causeCode(reason)).toBe("40P01");
    }
    expect(views).toEqual([1, 0]);
  });

  it("a failing batch rejects every view in it as guarded() would, counting none", async () => {
    const [a, b] = await seeded(2);
    if (!a || !b) throw new Error("seeded two listings");
    const { listings } = ctx.storage(2).repositories;
    const { sql } = ctx.connection();
    // Only a's row refuses; b shares the statement and so its fate.
    await sql.unsafe(`
      create function refuse_views() returns trigger language plpgsql as
        $$ begin raise exception 'no views'; end $$;
      create trigger refuse_views before update of views on listings
        for each row when (old.id = '${a.id}') execute function refuse_views();`);
    let results: PromiseSettledResult<boolean>[];
    try {
      results = await Promise.allSettled([
        ...Array.from({ length: 5 }, () => listings.incrementViews(a.id)),
        ...Array.from({ length: 5 }, () => listings.incrementViews(b.id)),
      ]);
    } finally {
      await sql.unsafe("drop trigger refuse_views on listings; drop function refuse_views();");
    }
    for (const result of results) {
      expect(result.status).toBe("rejected");
      const reason: unknown = result.status === "rejected" ? result.reason : undefined;
      expect(isMarketplaceError(reason, "internal_error")).toBe(true);
      expect(causeCode(reason)).toBe("P0001");
    }
    expect(await viewsOf([a, b])).toEqual([0, 0]);
    // The batcher goes on with the next batch.
    expect(await listings.incrementViews(b.id)).toBe(true);
    expect(await viewsOf([a, b])).toEqual([0, 1]);
  });

  it("inside a unit of work a view is the unit's: unseen until it commits, gone when it rolls back", async () => {
    const [listing] = await seeded(1);
    if (!listing) throw new Error("seeded one listing");
    const { unitOfWork } = ctx.storage(2).repositories;
    const rollback = new Error("roll back");
    await expect(
      unitOfWork.run(async (repos) => {
        expect(await repos.listings.incrementViews(listing.id)).toBe(true);
        expect(await repos.listings.incrementViews(testId())).toBe(false);
        // Seen inside the transaction, not outside: it was not committed by a batch.
        expect((await repos.listings.findById(listing.id))?.views).toBe(1);
        expect(await viewsOf([listing])).toEqual([0]);
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    expect(await viewsOf([listing])).toEqual([0]);
    await unitOfWork.run(async (repos) => {
      await repos.listings.incrementViews(listing.id);
    });
    expect(await viewsOf([listing])).toEqual([1]);
  });

  it("a malformed id answers false without reaching the database", async () => {
    // Nothing listens on port 1: a query would fail as service_unavailable.
    const storage = openPostgresStorage({ url: "postgres://postgres@127.0.0.1:1/none" });
    try {
      expect(await storage.repositories.listings.incrementViews("not-a-uuid")).toBe(false);
      const error = await storage.repositories.listings.incrementViews(testId()).catch((e: unknown) => e);
      expect(isMarketplaceError(error, "service_unavailable")).toBe(true);
    } finally {
      await storage.close();
    }
  });
});

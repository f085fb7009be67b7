import { describe, expect, it } from "vitest";
import {
  at,
  type ContractContext,
  ids,
  listingOf,
  NO_LIMIT,
  newestFirst,
  seedListings,
  seedUser,
  shuffled,
  T0,
} from "./context.js";

const UNKNOWN = "01900000-0000-7000-8000-0000000000ff";

/** Cases of ListingRepository reads and plain writes. */
export function listingCases(ctx: ContractContext): void {
  describe("listings", () => {
    it("round-trips every field exactly", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const rich = listingOf(user, 1, {
        title: "Ünïcödé — 日本語のコンサル 🚀",
        description: "Line one\nline two\t«quoted» 'single' \"double\" \\ back",
        price: 1234.56,
        priceUnit: "hour",
        category: "artificial-intelligence",
        condition: "like new",
        images: ["https://img.example.com/a.png", "https://img.example.com/b.jpg?x=1&y=2"],
        structuredData: {
          ai_generated: false,
          nested: { list: [1, 2.5, "drei", true, null], deep: { ok: "ja" } },
        },
        status: "paused",
        contactEmail: "sales@example.com",
        expiresAt: new Date("2026-12-31T23:59:59.123Z"),
        views: 7,
        createdAt: new Date("2026-03-01T12:00:00.987Z"),
      });
      const bare = listingOf(user, 2, { price: null, structuredData: null, images: [], contactEmail: null });
      const free = listingOf(user, 3, { price: 0, priceUnit: "day" });
      await seedListings(repos, [rich, bare, free]);
      expect(await repos.listings.findById(rich.id)).toEqual(rich);
      expect(await repos.listings.findById(bare.id)).toEqual(bare);
      expect(await repos.listings.findById(free.id)).toEqual(free);
      const back = await repos.listings.findById(rich.id);
      expect(back?.createdAt).toBeInstanceOf(Date);
      expect(back?.createdAt.getTime()).toBe(rich.createdAt.getTime());
      expect(back?.expiresAt?.getTime()).toBe(rich.expiresAt?.getTime());
    });

    it("findById answers null for an unknown id and returns copies", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const listing = listingOf(user, 0, { images: ["https://a.example/1.png"] });
      await seedListings(repos, [listing]);
      expect(await repos.listings.findById(UNKNOWN)).toBeNull();
      const first = await repos.listings.findById(listing.id);
      first?.images.push("https://mutated.example/");
      expect((await repos.listings.findById(listing.id))?.images).toEqual(["https://a.example/1.png"]);
    });

    it("findByIds answers every stored listing asked for, whatever its status, once, and leaves the rest out", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const rows = [
        listingOf(user, 0, { price: null }),
        listingOf(user, 1, { status: "paused" }),
        listingOf(user, 2, { expiresAt: T0 }),
        listingOf(user, 3),
      ];
      await seedListings(repos, shuffled(rows));
      const [a, b, c] = rows as [(typeof rows)[0], (typeof rows)[0], (typeof rows)[0]];
      const asked = [c.id, UNKNOWN, "not-a-uuid", a.id, c.id, b.id];
      const found = await repos.listings.findByIds(asked);
      expect([...found].sort((x, y) => x.id.localeCompare(y.id))).toEqual(
        [a, b, c].sort((x, y) => x.id.localeCompare(y.id)),
      );
      expect(await repos.listings.findByIds([])).toEqual([]);
      expect(await repos.listings.findByIds([UNKNOWN])).toEqual([]);
    });

    it("listAll returns every status, id descending, paged with before", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const rows = [
        listingOf(user, 0),
        listingOf(user, 1, { status: "paused" }),
        listingOf(user, 2, { expiresAt: T0 }),
        listingOf(user, 3),
        listingOf(user, 4),
      ];
      await seedListings(repos, shuffled(rows));
      const order = newestFirst(rows);
      expect(ids(await repos.listings.listAll({ limit: 100 }))).toEqual(order);
      const first = await repos.listings.listAll({ limit: 2 });
      expect(ids(first)).toEqual(order.slice(0, 2));
      const second = await repos.listings.listAll({ limit: 2, before: first[1]!.id });
      expect(ids(second)).toEqual(order.slice(2, 4));
      expect(ids(await repos.listings.listAll({ limit: 2, before: order[3] }))).toEqual(order.slice(4));
    });

    it("update applies changes, keeps the rest and answers null for an unknown id", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const listing = listingOf(user, 0, {
        price: 10,
        contactEmail: "a@example.com",
        expiresAt: at(3_600_000),
      });
      await seedListings(repos, [listing]);
      await repos.listings.incrementViews(listing.id);
      const changes = {
        title: "New title",
        description: "New description",
        price: null,
        priceUnit: "month",
        category: "cybersecurity",
        condition: "refurbished",
        images: ["https://img.example.com/new.png"],
        structuredData: { v: { w: [1] } },
        contactEmail: null,
        expiresAt: null,
        status: "paused",
      } as const;
      const updated = await repos.listings.update(
        listing.id,
        { ...changes, images: [...changes.images] },
        NO_LIMIT,
      );
      const expected = { ...listing, ...changes, images: [...changes.images], views: 1 };
      expect(updated).toEqual(expected);
      expect(await repos.listings.findById(listing.id)).toEqual(expected);
      const partial = await repos.listings.update(listing.id, { price: 1234.56 }, NO_LIMIT);
      expect(partial).toEqual({ ...expected, price: 1234.56 });
      expect(await repos.listings.update(UNKNOWN, { title: "x" }, NO_LIMIT)).toBeNull();
    });

    it("delete removes the listing once", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const [gone, kept] = await seedListings(repos, [listingOf(user, 0), listingOf(user, 1)]);
      expect(await repos.listings.delete(gone!.id)).toBe(true);
      expect(await repos.listings.findById(gone!.id)).toBeNull();
      expect(await repos.listings.delete(gone!.id)).toBe(false);
      expect(await repos.listings.findById(kept!.id)).toEqual(kept);
      expect(await repos.listings.delete(UNKNOWN)).toBe(false);
    });

    it("incrementViews adds one and answers false for an unknown id", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const [listing] = await seedListings(repos, [listingOf(user, 0, { views: 3 })]);
      expect(await repos.listings.incrementViews(listing!.id)).toBe(true);
      expect(await repos.listings.incrementViews(listing!.id)).toBe(true);
      expect((await repos.listings.findById(listing!.id))?.views).toBe(5);
      expect(await repos.listings.incrementViews(UNKNOWN)).toBe(false);
    });

    it.skipIf(!ctx.concurrency)("incrementViews: 50 concurrent calls add exactly 50", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const [listing] = await seedListings(repos, [listingOf(user, 0)]);
      const results = await Promise.all(
        Array.from({ length: 50 }, () => repos.listings.incrementViews(listing!.id)),
      );
      expect(results.every((ok) => ok)).toBe(true);
      expect((await repos.listings.findById(listing!.id))?.views).toBe(50);
    });
  });
}

import { describe, expect, it } from "vitest";
import type { Listing } from "../../domain/listing.js";
import type { Repositories } from "../../ports/repositories.js";
import {
  type ContractContext,
  ids,
  listingOf,
  MINUTE,
  newestFirst,
  seedListings,
  seedUser,
  shuffled,
} from "./context.js";
import { NOW, seedCatalog, substringOracle } from "./listing-catalog.js";

/** Cases of ListingRepository.search. */
export function listingSearchCases(ctx: ContractContext): void {
  const search = (
    text: string | undefined,
    extra: Partial<Parameters<Repositories["listings"]["search"]>[0]> = {},
  ) => ctx.repos().listings.search({ limit: 100, status: "active", text, ...extra }, NOW);
  const titles = (rows: Listing[]) => rows.map((row) => row.title);

  describe("listings.search", () => {
    it("matches titles case-insensitively, non-ASCII letters included", async () => {
      await seedCatalog(ctx.repos());
      expect(titles(await search("müller"))).toEqual(["Müller later", "MÜLLER Consulting"]);
      expect(titles(await search("mÜlLeR c"))).toEqual(["MÜLLER Consulting"]);
      expect(titles(await search("école"))).toEqual(["ÉCOLE de design"]);
      expect(titles(await search("ÖLRAFF"))).toEqual(["Ölraffinerie data work"]);
    });

    it("takes %, _ and \\ literally", async () => {
      await seedCatalog(ctx.repos());
      expect(titles(await search("50%"))).toEqual(["50% discount audit"]);
      expect(titles(await search("%"))).toEqual(["50% discount audit"]);
      expect(titles(await search("a_b"))).toEqual(["a_b testing playbook"]);
      expect(titles(await search("_"))).toEqual(["a_b testing playbook"]);
      expect(titles(await search("C\\D"))).toEqual(["C\\D migration plan"]);
      expect(titles(await search("\\"))).toEqual(["C\\D migration plan"]);
      expect(titles(await search("%%"))).toEqual([]);
    });

    it("gives 1- and 2-character terms the same results as a substring match", async () => {
      const { all } = await seedCatalog(ctx.repos());
      const terms = [
        "a",
        "D",
        "ü",
        "é",
        "0",
        "%",
        "_",
        "\\",
        "ll",
        "LL",
        "de",
        "00",
        "ö",
        "x",
        "q",
        "db",
        "C\\",
      ];
      for (const term of terms) {
        expect(ids(await search(term)), `term ${JSON.stringify(term)}`).toEqual(substringOracle(all, term));
      }
    });

    it("gives terms without three letters or digits in a row the same results as a substring match", async () => {
      // Such terms cannot use a trigram index: each adapter finds them another way.
      const author = await seedUser(ctx.repos());
      const rows = [
        "C++ tooling review",
        "c+ grade rescue",
        "x.y consulting",
        "R&D lab setup",
        "Rocket 🚀 app launch",
        "🚀🚀 growth sprint",
        "a b testing",
        "ab testing",
        "Née à Paris",
        "10 / 20 split",
      ].map((title, i) => listingOf(author, i * 1000, { title }));
      await seedListings(ctx.repos(), shuffled(rows));
      const terms = [
        "c++",
        "C+",
        "+ ",
        "x.y",
        "r&d",
        "&",
        "🚀",
        "🚀🚀",
        "t 🚀",
        "a b",
        "e à",
        "à p",
        "/ 2",
        "q+z",
        "🚀 a",
      ];
      for (const term of terms) {
        expect(ids(await search(term)), `term ${JSON.stringify(term)}`).toEqual(substringOracle(rows, term));
      }
    });

    it("returns only active, unexpired listings by default (expires_at equal to now is expired)", async () => {
      const { active, later } = await seedCatalog(ctx.repos());
      expect(ids(await search(undefined))).toEqual(newestFirst([...active, later]));
      expect(titles(await search("paused"))).toEqual([]);
      expect(titles(await search("expired"))).toEqual([]);
    });

    it("filters by status paused, expired and all", async () => {
      const { authors, all, paused, expired, later } = await seedCatalog(ctx.repos());
      const byStatus = (status: "paused" | "expired" | "all") => search(undefined, { status });
      expect(ids(await byStatus("paused"))).toEqual([paused.id]);
      expect(ids(await byStatus("expired"))).toEqual([expired.id]);
      expect(ids(await byStatus("all"))).toEqual(newestFirst(all));
      const mine = all.filter((row) => row.userId === authors[0].id);
      expect(ids(await search(undefined, { status: "all", userId: authors[0].id }))).toEqual(
        newestFirst(mine),
      );
      expect(ids(await search("müller", { status: "all" }))).toEqual(
        newestFirst([paused, expired, later, all[0]!]),
      );
      // A later `now` expires what was still active.
      const after = await ctx
        .repos()
        .listings.search({ limit: 100, status: "expired", text: "müller" }, new Date(NOW.getTime() + MINUTE));
      expect(ids(after)).toEqual(newestFirst([expired, later]));
    });

    it("combines category, author and text filters", async () => {
      const { authors, active, later } = await seedCatalog(ctx.repos());
      const dev = [...active, later].filter((row) => row.category === "software-development");
      expect(ids(await search(undefined, { category: "software-development" }))).toEqual(newestFirst(dev));
      expect(
        titles(await search("plan", { category: "software-development", userId: authors[1].id })),
      ).toEqual(["CD migration plan"]);
      expect(titles(await search("testing", { userId: authors[0].id }))).toEqual(["a_b testing playbook"]);
      expect(await search("testing", { category: "cybersecurity" })).toEqual([]);
      expect(await search(undefined, { userId: "01900000-0000-7000-8000-000000000000" })).toEqual([]);
    });

    it("orders by id descending whatever the insertion order", async () => {
      const { active, later } = await seedCatalog(ctx.repos());
      const found = await search(undefined);
      expect(ids(found)).toEqual(newestFirst([...active, later]));
      expect(found[0]).toEqual(later);
    });

    it("pages with `before`, covering every row once, and honours `limit`", async () => {
      const { all } = await seedCatalog(ctx.repos());
      const seen: string[] = [];
      let before: string | undefined;
      const sizes: number[] = [];
      for (let guard = 0; guard < 10; guard++) {
        const page = await search(undefined, { status: "all", limit: 4, before });
        sizes.push(page.length);
        seen.push(...ids(page));
        if (page.length < 4) break;
        before = page[page.length - 1]!.id;
      }
      expect(sizes).toEqual([4, 4, 4, 1]);
      expect(seen).toEqual(newestFirst(all));
      expect(new Set(seen).size).toBe(all.length);
      expect(await search(undefined, { status: "all", before: newestFirst(all).at(-1) })).toEqual([]);
      expect(ids(await search(undefined, { limit: 2 }))).toHaveLength(2);
    });

    it("finds nothing in an empty store", async () => {
      expect(await search(undefined, { status: "all" })).toEqual([]);
      expect(await search("x")).toEqual([]);
    });
  });
}

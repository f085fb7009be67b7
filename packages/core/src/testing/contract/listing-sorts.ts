import { describe, expect, it } from "vitest";
import type { Category } from "../../domain/category.js";
import type { ListingSort } from "../../domain/listing-sort.js";
import type { ContractContext } from "./context.js";
import { listingOf, MINUTE, seedListings, seedUser, shuffled } from "./context.js";
import { countsOf, type FindCriteria, findAllPages, findQuery, foundTitles } from "./find-support.js";
import { NOW } from "./listing-catalog.js";

// Names in creation order (A oldest); prices with ties and gaps.
const ROWS: [title: string, price: number | null, category: Category, description: string][] = [
  ["A", 50, "cybersecurity", "audit work"],
  ["B", null, "cybersecurity", "audit work"],
  ["C", 120.5, "legal-consulting", "contract review"],
  ["D", 50, "legal-consulting", "audit of contracts"],
  ["E", 0, "data-analytics", "dashboards"],
  ["F", null, "data-analytics", "audit dashboards"],
  ["G", 999, "cybersecurity", "audit at scale"],
  ["H", 120.5, "cybersecurity", "contract audit"],
];

const ORDERS: Record<ListingSort, string[]> = {
  newest: ["H", "G", "F", "E", "D", "C", "B", "A"],
  relevance: ["H", "G", "F", "E", "D", "C", "B", "A"],
  // Ties oldest first ascending, newest first descending; no price last in both.
  price_asc: ["E", "A", "D", "C", "H", "G", "B", "F"],
  price_desc: ["G", "H", "C", "D", "A", "E", "F", "B"],
};

/** Cases of ListingRepository.find's price range and sorts, and of countByCategory. */
export function listingSortCases(ctx: ContractContext): void {
  const titles = async (criteria: FindCriteria) =>
    foundTitles(await ctx.repos().listings.find(findQuery(criteria), NOW));

  async function seed() {
    const author = await seedUser(ctx.repos());
    const rows = ROWS.map(([title, price, category, description], i) =>
      listingOf(author, i * MINUTE, { title, price, category, description }),
    );
    await seedListings(ctx.repos(), shuffled(rows));
    return rows;
  }

  describe("listings.find: price range and sorts", () => {
    it("bounds the price inclusively and leaves out listings without a price", async () => {
      await seed();
      expect(await titles({ minPrice: 0 })).toEqual(["H", "G", "E", "D", "C", "A"]);
      expect(await titles({ minPrice: 50.01 })).toEqual(["H", "G", "C"]);
      expect(await titles({ maxPrice: 50 })).toEqual(["E", "D", "A"]);
      expect(await titles({ minPrice: 120.5, maxPrice: 120.5 })).toEqual(["H", "C"]);
      expect(await titles({ minPrice: 1000 })).toEqual([]);
      expect(await titles({ minPrice: 50, maxPrice: 200, words: ["audit"] })).toEqual(["H", "D", "A"]);
    });

    for (const sort of Object.keys(ORDERS) as ListingSort[]) {
      it(`sorts ${sort}, and its cursors cover every row once at every page size`, async () => {
        await seed();
        expect(await titles({ sort })).toEqual(ORDERS[sort]);
        for (const limit of [1, 2, 3, 7]) {
          const { rows, pages } = await findAllPages(ctx.repos(), { sort, limit }, NOW);
          expect(foundTitles(rows), `limit ${limit}`).toEqual(ORDERS[sort]);
          expect(pages).toBe(Math.floor(ORDERS[sort].length / limit) + 1);
        }
      });
    }

    it("sorts by price among full-text matches, and pages them", async () => {
      await seed();
      const audit = { words: ["audit"] };
      expect(await titles({ ...audit, sort: "price_asc" })).toEqual(["A", "D", "H", "G", "B", "F"]);
      expect(await titles({ ...audit, sort: "price_desc" })).toEqual(["G", "H", "D", "A", "F", "B"]);
      const { rows } = await findAllPages(ctx.repos(), { ...audit, sort: "price_desc", limit: 4 }, NOW);
      expect(foundTitles(rows)).toEqual(["G", "H", "D", "A", "F", "B"]);
      // Relevance: "audit" in the title of none; all rank alike, newest first.
      const relevance = await findAllPages(ctx.repos(), { ...audit, sort: "relevance", limit: 2 }, NOW);
      expect(foundTitles(relevance.rows)).toEqual(["H", "G", "F", "D", "B", "A"]);
    });
  });

  describe("listings.countByCategory", () => {
    const count = (criteria: FindCriteria, cap = 1000) => {
      const { category: _, sort: __, after: ___, limit: ____, ...facets } = findQuery(criteria);
      return ctx.repos().listings.countByCategory(facets, cap, NOW);
    };

    it("counts every match per category, whatever the page", async () => {
      await seed();
      const all = await count({});
      expect(countsOf(all.counts)).toEqual({
        cybersecurity: 4,
        "data-analytics": 2,
        "legal-consulting": 2,
      });
      expect(all.capped).toBe(false);
      const audit = await count({ words: ["audit"], minPrice: 1 });
      expect(countsOf(audit.counts)).toEqual({ cybersecurity: 3, "legal-consulting": 1 });
      expect(audit.capped).toBe(false);
      expect(await count({ words: ["nothing"] })).toEqual({ counts: {}, capped: false });
    });

    it("reports a count above the cap as the cap, flagged", async () => {
      await seed();
      const capped = await count({}, 2);
      expect(countsOf(capped.counts)).toEqual({
        cybersecurity: 2,
        "data-analytics": 2,
        "legal-consulting": 2,
      });
      expect(capped.capped).toBe(true);
      // A count equal to the cap is exact.
      const exact = await count({ words: ["dashboards"] }, 2);
      expect(countsOf(exact.counts)).toEqual({ "data-analytics": 2 });
      expect(exact.capped).toBe(false);
    });
  });
}

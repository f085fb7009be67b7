import { describe, expect, it } from "vitest";
import { ANON, collectPages, expectInvalidField, setup, untyped } from "../../testing/use-case-kit.js";
import { create } from "./listings-test-support.js";

describe("listings.search with q, prices, sorts and facets", () => {
  async function seeded() {
    const kit = setup({ slots: { personal: 200, business: 200, admin: 200 } });
    const alice = await kit.signUpAndLogIn("alice@example.com");
    const { market } = kit;
    const pentest = await create(market, alice.actor, {
      title: "Pentest offer",
      description: "Penetration Testing for SaaS Startups",
      category: "cybersecurity",
      price: 4800,
    });
    const consulting = await create(market, alice.actor, {
      title: "Security consulting",
      description: "A penetration test, then advice.",
      category: "strategic-consulting",
      price: null,
    });
    const cafe = await create(market, alice.actor, {
      title: "Café branding",
      description: "Logos.",
      category: "ux-ui-design",
      price: 900,
    });
    return { ...kit, pentest, consulting, cafe };
  }

  it("finds words in descriptions, by relevance by default: title matches first", async () => {
    const { market, pentest, consulting } = await seeded();
    const page = await market.listings.search(ANON, { q: "penetration" });
    expect(page.items.map((l) => l.id)).toEqual([consulting.id, pentest.id]);
    const titleFirst = await market.listings.search(ANON, { q: "consultant" });
    expect(titleFirst.items.map((l) => l.id)).toEqual([consulting.id]);
    expect((await market.listings.search(ANON, { q: "cafe" })).items).toHaveLength(1);
    // The title match ranks first though it is older.
    const ranked = await market.listings.search(ANON, { q: "pentest" });
    expect(ranked.items.map((l) => l.id)).toEqual([pentest.id]);
    // A q without words is no filter at all.
    expect((await market.listings.search(ANON, { q: " -- " })).items).toHaveLength(3);
  });

  it("combines q with the 1.0.2 title substring", async () => {
    const { market, pentest } = await seeded();
    const page = await market.listings.search(ANON, { q: "penetration", search: "offer" });
    expect(page.items.map((l) => l.id)).toEqual([pentest.id]);
  });

  it("bounds prices from query-string text, and sorts by price with cursors", async () => {
    const { market, pentest, cafe, consulting } = await seeded();
    const cheap = await market.listings.search(ANON, { maxPrice: "1000" });
    expect(cheap.items.map((l) => l.id)).toEqual([cafe.id]);
    const { seen } = await collectPages(
      (cursor) => market.listings.search(ANON, { sort: "price_desc", limit: 1, ...cursor }),
      10,
    );
    expect(seen).toEqual([pentest.id, cafe.id, consulting.id]);
  });

  it("answers facets over every criterion but category", async () => {
    const { market } = await seeded();
    const page = await market.listings.search(ANON, {
      q: "penetration",
      category: "cybersecurity",
      facets: "category",
    });
    expect(page.items).toHaveLength(1);
    expect(page.facets).toEqual({
      category: { counts: { cybersecurity: 1, "strategic-consulting": 1 }, capped: false },
    });
    expect((await market.listings.search(ANON, {})).facets).toBeUndefined();
  });

  it("refuses what it cannot bound or read, naming the field", async () => {
    const { market } = await seeded();
    const search = (input: Record<string, unknown>) => market.listings.search(ANON, untyped(input));
    await expectInvalidField(search({ q: "x".repeat(201) }), "q", "q: must be at most 200 characters");
    await expectInvalidField(search({ q: "a b c d e f g h i" }), "q", "q: must have at most 8 words");
    await expectInvalidField(search({ minPrice: "cheap" }), "minPrice");
    await expectInvalidField(search({ minPrice: -1 }), "minPrice");
    await expectInvalidField(search({ minPrice: 10, maxPrice: 5 }), "minPrice");
    await expectInvalidField(search({ sort: "popular" }), "sort");
    await expectInvalidField(search({ facets: "price" }), "facets");
    const first = await market.listings.search(ANON, { sort: "price_asc", limit: 1 });
    await expectInvalidField(search({ sort: "price_desc", cursor: first.nextCursor }), "cursor");
  });
});

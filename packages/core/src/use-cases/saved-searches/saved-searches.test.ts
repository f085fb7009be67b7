import { describe, expect, it } from "vitest";
import { MAX_SAVED_SEARCHES_PER_USER } from "../../domain/saved-search.js";
import { startSavedSearchMatcher } from "../../support/saved-search-matcher.js";
import { createTestDeps } from "../../testing/fakes/deps.js";
import { ANON, expectCode, expectInvalidField, setupWith } from "../../testing/use-case-kit.js";

async function world() {
  const kit = setupWith(createTestDeps());
  const buyer = await kit.signUpAndLogIn("buyer@example.com");
  const seller = await kit.signUpAndLogIn("seller@example.com");
  const matchedEvents = async () =>
    (await kit.market.events.list(buyer.actor, {}))
      .filter((event) => event.type === "saved_search.matched")
      .map((event) => event.data);
  return { ...kit, buyer, seller, matchedEvents };
}

const AUDIT = {
  title: "Security audit for shops",
  description: "Two weeks",
  category: "cybersecurity",
  price: 900,
} as const;

/**
 * A saved search of the buyer's, and `count` matching listings of the seller's with a message
 * (an event of another type, to read past) right after the first.
 */
async function listingsAroundAMessage(count: number) {
  const kit = await world();
  const { market, buyer, seller } = kit;
  await market.savedSearches.create(buyer.actor, { q: "audit" });
  const listings = [await market.listings.create(seller.actor, AUDIT)];
  await market.messages.send(buyer.actor, {
    listingId: listings[0]!.id,
    receiverId: seller.user.id,
    content: "Hi",
  });
  for (let i = 1; i < count; i++) listings.push(await market.listings.create(seller.actor, AUDIT));
  return { ...kit, listings };
}

describe("saved searches: managing them", () => {
  it("saves the search's parameters with a name, lists them newest first and deletes them", async () => {
    const { market, buyer } = await world();
    const first = await market.savedSearches.create(buyer.actor, {
      q: "  audit ",
      category: "cybersecurity",
    });
    expect(first).toMatchObject({
      q: "audit",
      search: null,
      category: "cybersecurity",
      minPrice: null,
      name: "audit, cybersecurity",
    });
    const second = await market.savedSearches.create(buyer.actor, {
      search: "shop",
      minPrice: "100",
      name: "Shops",
    });
    expect(second).toMatchObject({ search: "shop", minPrice: 100, name: "Shops", q: null });
    const page = await market.savedSearches.list(buyer.actor, { limit: 1 });
    expect(page.items.map((row) => row.id)).toEqual([second.id]);
    const rest = await market.savedSearches.list(buyer.actor, {
      limit: 1,
      cursor: page.nextCursor ?? undefined,
    });
    expect(rest).toEqual({ items: [first], nextCursor: null });
    await market.savedSearches.delete(buyer.actor, { id: first.id });
    expect((await market.savedSearches.list(buyer.actor, {})).items.map((row) => row.id)).toEqual([
      second.id,
    ]);
  });

  it("needs one criterion that filters something, validated as the listing search validates it", async () => {
    const { market, buyer } = await world();
    await expectCode(market.savedSearches.create(buyer.actor, {}), "invalid_input");
    await expectCode(
      market.savedSearches.create(buyer.actor, { q: "?!", search: "  ", category: "all" }),
      "invalid_input",
    );
    await expectInvalidField(market.savedSearches.create(buyer.actor, { q: "a b c d e f g h i" }), "q");
    await expectInvalidField(market.savedSearches.create(buyer.actor, { minPrice: -1 }), "minPrice");
    await expectInvalidField(
      market.savedSearches.create(buyer.actor, { minPrice: 5, maxPrice: 4 }),
      "minPrice",
    );
    await expectInvalidField(
      market.savedSearches.create(buyer.actor, { category: "gardening" as "all" }),
      "category",
    );
    await expectCode(market.savedSearches.create(ANON, { q: "audit" }), "unauthenticated");
  });

  it("keeps at most 20 per user, and hides others' saved searches behind not-found", async () => {
    const { market, buyer, seller } = await world();
    for (let i = 0; i < MAX_SAVED_SEARCHES_PER_USER; i++)
      await market.savedSearches.create(buyer.actor, { q: `word${i}` });
    await expectCode(market.savedSearches.create(buyer.actor, { q: "more" }), "saved_search_limit_reached");
    const [own] = (await market.savedSearches.list(buyer.actor, { limit: 1 })).items;
    await expectCode(market.savedSearches.delete(seller.actor, { id: own!.id }), "saved_search_not_found");
    await expectCode(
      market.savedSearches.delete(seller.actor, { id: "not-a-uuid" }),
      "saved_search_not_found",
    );
    await market.savedSearches.delete(buyer.actor, { id: own!.id });
    await expectCode(market.savedSearches.delete(buyer.actor, { id: own!.id }), "saved_search_not_found");
  });
});

describe("saved searches: matching new listings", () => {
  it("tells the owner of each match once, off the request path, never of their own listing", async () => {
    const { market, buyer, seller, matchedEvents } = await world();
    const search = await market.savedSearches.create(buyer.actor, { q: "audits", maxPrice: 1000 });
    const listing = await market.listings.create(seller.actor, AUDIT);
    await market.listings.create(buyer.actor, AUDIT);
    await market.listings.create(seller.actor, { ...AUDIT, price: 1001 });
    expect(await matchedEvents()).toEqual([]);
    expect(await market.savedSearches.match()).toEqual({ listings: 3, matched: 1, more: false });
    expect(await matchedEvents()).toEqual([{ saved_search_id: search.id, listing_id: listing.id }]);
    await market.listings.update(seller.actor, { id: listing.id, description: "Three weeks" });
    expect(await market.savedSearches.match()).toEqual({ listings: 1, matched: 0, more: false });
    expect(await matchedEvents()).toHaveLength(1);
  });

  it("matches a listing when it becomes visible again, not while paused", async () => {
    const { market, buyer, seller, matchedEvents } = await world();
    const listing = await market.listings.create(seller.actor, AUDIT);
    await market.listings.update(seller.actor, { id: listing.id, status: "paused" });
    await market.savedSearches.create(buyer.actor, { category: "cybersecurity" });
    await market.savedSearches.match();
    expect(await matchedEvents()).toEqual([]);
    await market.listings.update(seller.actor, { id: listing.id, status: "active" });
    await market.savedSearches.match();
    expect((await matchedEvents()).map((data) => data.listing_id)).toEqual([listing.id]);
  });

  it("takes on at most `batch` listings a round, reads past other events, and says when more is left", async () => {
    const { market, matchedEvents, listings } = await listingsAroundAMessage(3);
    const third = listings[2]!;
    expect(await market.savedSearches.match({ batch: 2 })).toEqual({ listings: 2, matched: 2, more: true });
    expect(await market.savedSearches.match({ batch: 2 })).toEqual({ listings: 1, matched: 1, more: false });
    expect((await matchedEvents()).at(-1)?.listing_id).toBe(third.id);
    // Only the matches' own events are left to read past.
    expect(await market.savedSearches.match({ batch: 2 })).toEqual({ listings: 0, matched: 0, more: false });
    expect(await matchedEvents()).toHaveLength(3);
  });

  it("looks through at most `window` events a round, moving past a window with no listing", async () => {
    const { market, matchedEvents, listings } = await listingsAroundAMessage(2);
    const [first, second] = listings;
    const round = () => market.savedSearches.match({ window: 1 });
    expect(await round()).toEqual({ listings: 1, matched: 1, more: true });
    expect(await round()).toEqual({ listings: 0, matched: 0, more: true });
    expect(await round()).toEqual({ listings: 1, matched: 1, more: true });
    expect((await matchedEvents()).map((data) => data.listing_id)).toEqual([first!.id, second!.id]);
  });

  it("runs round after round while more is left, not one per interval", async () => {
    const { market, buyer, seller, matchedEvents } = await world();
    await market.savedSearches.create(buyer.actor, { q: "audit" });
    for (let i = 0; i < 5; i++) await market.listings.create(seller.actor, AUDIT);
    const reports: number[] = [];
    let resolve = () => {};
    const allMatched = new Promise<void>((done) => {
      resolve = done;
    });
    const owner = { savedSearches: { match: () => market.savedSearches.match({ batch: 2 }) } };
    // An interval no test waits for: only the rounds' own follow-ups can match all five.
    const matcher = startSavedSearchMatcher(owner, {
      intervalMs: 3_600_000,
      onReport: (report) => {
        reports.push(report.listings);
        if (reports.reduce((a, b) => a + b) === 5) resolve();
      },
    });
    matcher.poke();
    await allMatched;
    expect(reports).toEqual([2, 2, 1]);
    await matcher.stop();
    expect(await matchedEvents()).toHaveLength(5);
  });
});

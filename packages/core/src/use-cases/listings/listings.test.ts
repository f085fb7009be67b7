import type { Actor, Listing, NewListingInput } from "@psm/core";
import { describe, expect, it } from "vitest";
import {
  ANON,
  expectCode,
  expectInvalidField,
  logInAdmin,
  type Marketplace as Market,
  setupMarketplace as setup,
  signUpAndLogIn,
  untyped,
} from "../../testing/use-case-kit.js";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const BASE: NewListingInput = {
  title: "Cloud migration",
  description: "We move your workloads.",
  category: "software-development",
};

function create(market: Market, actor: Actor, fields: Partial<NewListingInput> = {}): Promise<Listing> {
  return market.listings.create(actor, { ...BASE, ...fields });
}

describe("listings.create", () => {
  it("creates an active listing for the caller with the interface's defaults", async () => {
    const { deps, market } = setup();
    const { user, actor } = await signUpAndLogIn(market, "a@example.com");
    const listing = await create(market, actor);
    expect(listing).toMatchObject({
      title: "Cloud migration",
      description: "We move your workloads.",
      category: "software-development",
      condition: "good",
      images: [],
      structuredData: { ai_generated: true },
      price: null,
      contactEmail: null,
      expiresAt: null,
      status: "active",
      views: 0,
      userId: user.id,
    });
    expect(listing.createdAt.getTime()).toBe(deps.clock.now().getTime());
    await expect(market.listings.get({ id: listing.id })).resolves.toEqual(listing);
  });

  it("accepts a numeric string price and an API-key actor", async () => {
    const { market } = setup();
    const { actor } = await signUpAndLogIn(market, "b@example.com");
    const { secret } = await market.apiKeys.create(actor, {});
    const keyActor = await market.auth.authenticate({ apiKey: secret });
    await expect(create(market, keyActor, { price: "1250.50" })).resolves.toMatchObject({ price: 1250.5 });
    await expect(create(market, keyActor, { price: 0 })).resolves.toMatchObject({ price: 0 });
    await expectCode(create(market, keyActor, { price: "12abc" }), "invalid_input");
    await expectCode(create(market, keyActor, { price: -1 }), "invalid_input");
    await expectCode(create(market, keyActor, { price: Number.POSITIVE_INFINITY }), "invalid_input");
  });

  it("ignores unknown fields and fields a caller may not set", async () => {
    const { market } = setup();
    const { user, actor } = await signUpAndLogIn(market, "c@example.com");
    const other = await signUpAndLogIn(market, "other@example.com");
    const forcedId = crypto.randomUUID();
    const listing = await create(
      market,
      actor,
      untyped({
        id: forcedId,
        userId: other.user.id,
        views: 99,
        status: "paused",
        createdAt: "2000-01-01T00:00:00Z",
        favourite_colour: "blue",
      }),
    );
    expect(listing.id).not.toBe(forcedId);
    expect(listing.userId).toBe(user.id);
    expect(listing.views).toBe(0);
    expect(listing.status).toBe("active");
    expect(listing).not.toHaveProperty("favourite_colour");
  });

  it("keeps given optional fields", async () => {
    const { deps, market } = setup();
    const { actor } = await signUpAndLogIn(market, "d@example.com");
    const expires = new Date(deps.clock.now().getTime() + DAY);
    const listing = await create(market, actor, {
      condition: "new",
      images: ["https://img.example.com/a.png", "http://img.example.com/b.jpg"],
      structuredData: { skills: ["go", "ts"] },
      contactEmail: "sales@example.com",
      expiresAt: expires.toISOString(),
    });
    expect(listing).toMatchObject({
      condition: "new",
      images: ["https://img.example.com/a.png", "http://img.example.com/b.jpg"],
      structuredData: { skills: ["go", "ts"] },
      contactEmail: "sales@example.com",
      expiresAt: expires,
    });
  });

  it("requires title, description and a known category", async () => {
    const { market } = setup();
    const { actor } = await signUpAndLogIn(market, "e@example.com");
    await expectCode(
      market.listings.create(actor, untyped({ description: "d", category: "cybersecurity" })),
      "invalid_input",
    );
    await expectCode(
      market.listings.create(actor, untyped({ title: "t", category: "cybersecurity" })),
      "invalid_input",
    );
    await expectCode(
      market.listings.create(actor, untyped({ title: "t", description: "d" })),
      "invalid_input",
    );
    await expectCode(create(market, actor, untyped({ category: "plumbing" })), "invalid_input");
    await expectCode(create(market, actor, untyped({ category: "all" })), "invalid_input");
    await expectCode(create(market, actor, { title: "" }), "invalid_input");
    await expectCode(create(market, actor, { description: "" }), "invalid_input");
    await expectCode(market.listings.create(actor, untyped(undefined)), "invalid_input");
  });

  it("enforces the field bounds", async () => {
    const { deps, market } = setup({ slots: { personal: 100, business: 100, admin: 100 } });
    const { actor } = await signUpAndLogIn(market, "f@example.com");
    await expect(create(market, actor, { title: "t".repeat(200) })).resolves.toHaveProperty("id");
    await expectCode(create(market, actor, { title: "t".repeat(201) }), "invalid_input");
    await expect(create(market, actor, { description: "d".repeat(20_000) })).resolves.toHaveProperty("id");
    await expectCode(create(market, actor, { description: "d".repeat(20_001) }), "invalid_input");
    await expectCode(create(market, actor, { condition: "c".repeat(51) }), "invalid_input");

    const urls = (n: number) => Array.from({ length: n }, (_, i) => `https://img.example.com/${i}.png`);
    await expect(create(market, actor, { images: urls(20) })).resolves.toHaveProperty("id");
    await expectCode(create(market, actor, { images: urls(21) }), "invalid_input");
    await expectCode(create(market, actor, { images: ["ftp://img.example.com/a.png"] }), "invalid_input");
    await expectCode(create(market, actor, { images: ["javascript:alert(1)"] }), "invalid_input");
    await expectCode(
      create(market, actor, untyped({ images: "https://img.example.com/a.png" })),
      "invalid_input",
    );

    // 16 KiB once serialised: {"k":"..."} adds 8 bytes around the string.
    await expect(
      create(market, actor, { structuredData: { k: "x".repeat(16 * 1024 - 8) } }),
    ).resolves.toHaveProperty("id");
    await expectCode(
      create(market, actor, { structuredData: { k: "x".repeat(16 * 1024) } }),
      "invalid_input",
    );
    await expectCode(create(market, actor, untyped({ structuredData: "text" })), "invalid_input");

    await expectCode(create(market, actor, { contactEmail: "not-an-email" }), "invalid_input");
    await expectCode(create(market, actor, { expiresAt: "next tuesday" }), "invalid_input");
    await expectCode(create(market, actor, { expiresAt: "2030-13-45" }), "invalid_input");
    const past = new Date(deps.clock.now().getTime() - MINUTE).toISOString();
    await expectInvalidField(
      create(market, actor, { expiresAt: past }),
      "expiresAt",
      "expiresAt: must be in the future",
    );
    await expectInvalidField(
      create(market, actor, { expiresAt: deps.clock.now().toISOString() }),
      "expiresAt",
    );
  });

  it("refuses a structuredData that is an array, not a JSON object", async () => {
    const { market } = setup();
    const { actor } = await signUpAndLogIn(market, "g@example.com");
    await expectCode(
      create(market, actor, untyped({ structuredData: ["not", "an", "object"] })),
      "invalid_input",
    );
    const listing = await create(market, actor);
    await expectCode(
      market.listings.update(actor, untyped({ id: listing.id, structuredData: [1, 2] })),
      "invalid_input",
    );
  });

  it("requires a signed-in caller", async () => {
    const { market } = setup();
    await expectCode(create(market, ANON), "unauthenticated");
  });
});

describe("listing slots", () => {
  const slots = { slots: { personal: 2, business: 5, admin: 10 } };

  it("refuses a listing beyond the author's slots with listing_limit_reached", async () => {
    const { market } = setup(slots);
    const { user, actor } = await signUpAndLogIn(market, "a@example.com");
    await create(market, actor);
    await create(market, actor);
    await expectCode(create(market, actor), "listing_limit_reached");
    await expect(market.profiles.getLimit({ userId: user.id })).resolves.toEqual({
      canPost: false,
      activeListingsCount: 2,
      maxSlots: 2,
      accountType: "personal",
    });
    const own = await market.listings.search(ANON, { userId: user.id });
    expect(own.items).toHaveLength(2);
  });

  it("counts slots per author", async () => {
    const { market } = setup(slots);
    const a = await signUpAndLogIn(market, "a@example.com");
    const b = await signUpAndLogIn(market, "b@example.com");
    await create(market, a.actor);
    await create(market, a.actor);
    await expect(create(market, b.actor)).resolves.toHaveProperty("id");
  });

  it("frees a slot when a listing expires", async () => {
    const { deps, market } = setup(slots);
    const { actor } = await signUpAndLogIn(market, "a@example.com");
    await create(market, actor, { expiresAt: new Date(deps.clock.now().getTime() + HOUR).toISOString() });
    await create(market, actor);
    await expectCode(create(market, actor), "listing_limit_reached");
    deps.clock.advance(HOUR);
    await expect(create(market, actor)).resolves.toHaveProperty("id");
  });

  it("frees a slot when a listing is paused or deleted", async () => {
    const { market } = setup(slots);
    const { actor } = await signUpAndLogIn(market, "a@example.com");
    const first = await create(market, actor);
    const second = await create(market, actor);
    await expectCode(create(market, actor), "listing_limit_reached");
    await market.listings.update(actor, { id: first.id, status: "paused" });
    const third = await create(market, actor);
    await expectCode(create(market, actor), "listing_limit_reached");
    await market.listings.delete(actor, { id: second.id });
    await expect(create(market, actor)).resolves.toHaveProperty("id");
    expect(third.status).toBe("active");
  });

  it("refuses reactivation through status when the slots are full", async () => {
    const { deps, market } = setup(slots);
    const { actor } = await signUpAndLogIn(market, "a@example.com");
    const paused = await create(market, actor);
    await market.listings.update(actor, { id: paused.id, status: "paused" });
    await create(market, actor);
    await create(market, actor);
    await expectCode(
      market.listings.update(actor, { id: paused.id, status: "active" }),
      "listing_limit_reached",
    );
    expect((await deps.repos.listings.findById(paused.id))?.status).toBe("paused");
    // Edits that do not reactivate still work.
    await expect(market.listings.update(actor, { id: paused.id, title: "Renamed" })).resolves.toMatchObject({
      title: "Renamed",
      status: "paused",
    });
  });

  it("refuses reactivation through a future expiresAt when the slots are full", async () => {
    const { deps, market } = setup(slots);
    const { actor } = await signUpAndLogIn(market, "a@example.com");
    const expiring = await create(market, actor, {
      expiresAt: new Date(deps.clock.now().getTime() + HOUR).toISOString(),
    });
    deps.clock.advance(2 * HOUR);
    await create(market, actor);
    await create(market, actor);
    const future = new Date(deps.clock.now().getTime() + DAY).toISOString();
    await expectCode(
      market.listings.update(actor, { id: expiring.id, expiresAt: future }),
      "listing_limit_reached",
    );
    await expect(
      market.listings.update(actor, { id: expiring.id, description: "still expired" }),
    ).resolves.toMatchObject({
      description: "still expired",
    });
  });

  it("decides reactivation on the stored row, not on a read that a racing pause made stale", async () => {
    const { deps, market } = setup(slots);
    const { user, actor } = await signUpAndLogIn(market, "a@example.com");
    const first = await create(market, actor);
    await create(market, actor);
    const listings = deps.repos.listings;
    const read = listings.findById;
    // Between this edit's read (`first` active: nothing to reactivate) and its write,
    // another request pauses `first` and a create takes the slot that freed.
    listings.findById = async (id) => {
      const seen = await read(id);
      listings.findById = read;
      await market.listings.update(actor, { id: first.id, status: "paused" });
      await create(market, actor);
      return seen;
    };
    await expectCode(
      market.listings.update(actor, { id: first.id, status: "active" }),
      "listing_limit_reached",
    );
    expect((await read(first.id))?.status).toBe("paused");
    expect(await listings.countActiveByUser(user.id, deps.clock.now())).toBe(2);
  });

  it("allows reactivation when a slot is free, and applies the author's slots to an admin's edit", async () => {
    const { market } = setup(slots);
    const { actor } = await signUpAndLogIn(market, "a@example.com");
    const admin = (await logInAdmin(market)).actor;
    const first = await create(market, actor);
    await market.listings.update(actor, { id: first.id, status: "paused" });
    await expect(market.listings.update(actor, { id: first.id, status: "active" })).resolves.toMatchObject({
      status: "active",
    });
    await market.listings.update(admin, { id: first.id, status: "paused" });
    await create(market, actor);
    await create(market, actor);
    await expectCode(
      market.listings.update(admin, { id: first.id, status: "active" }),
      "listing_limit_reached",
    );
  });
});

describe("listings.search", () => {
  async function seeded() {
    const { deps, market } = setup({ slots: { personal: 200, business: 200, admin: 200 } });
    const alice = await signUpAndLogIn(market, "alice@example.com");
    const bob = await signUpAndLogIn(market, "bob@example.com");
    const a1 = await create(market, alice.actor, {
      title: "Kubernetes Consulting",
      category: "software-development",
    });
    const a2 = await create(market, alice.actor, { title: "Brand strategy", category: "digital-marketing" });
    const b1 = await create(market, bob.actor, { title: "Penetration testing", category: "cybersecurity" });
    const b2 = await create(market, bob.actor, { title: "KUBERNETES audit", category: "cybersecurity" });
    return { deps, market, alice, bob, a1, a2, b1, b2 };
  }

  it("returns active listings newest first", async () => {
    const { market, a1, a2, b1, b2 } = await seeded();
    const page = await market.listings.search(ANON, {});
    expect(page.items.map((l) => l.id)).toEqual([b2.id, b1.id, a2.id, a1.id]);
    expect(page.nextCursor).toBeNull();
  });

  it("filters by category, with `all` meaning every category", async () => {
    const { market, b1, b2 } = await seeded();
    const sec = await market.listings.search(ANON, { category: "cybersecurity" });
    expect(sec.items.map((l) => l.id)).toEqual([b2.id, b1.id]);
    expect((await market.listings.search(ANON, { category: "all" })).items).toHaveLength(4);
    await expectCode(market.listings.search(ANON, untyped({ category: "plumbing" })), "invalid_input");
  });

  it("matches a case-insensitive title substring", async () => {
    const { market, a1, b2 } = await seeded();
    const page = await market.listings.search(ANON, { search: "kuBERnetes" });
    expect(page.items.map((l) => l.id)).toEqual([b2.id, a1.id]);
    expect((await market.listings.search(ANON, { search: "ubernet" })).items).toHaveLength(2);
    expect((await market.listings.search(ANON, { search: "workloads" })).items).toHaveLength(0);
    expect((await market.listings.search(ANON, { search: "%" })).items).toHaveLength(0);
    expect((await market.listings.search(ANON, { search: "" })).items).toHaveLength(4);
  });

  it("filters by author and combines filters", async () => {
    const { market, alice, bob, a2, b2 } = await seeded();
    const alices = await market.listings.search(ANON, { userId: alice.user.id });
    expect(alices.items.every((l) => l.userId === alice.user.id)).toBe(true);
    expect(alices.items).toHaveLength(2);
    const combined = await market.listings.search(ANON, {
      userId: bob.user.id,
      search: "kube",
      category: "all",
    });
    expect(combined.items.map((l) => l.id)).toEqual([b2.id]);
    const none = await market.listings.search(ANON, { userId: alice.user.id, category: "cybersecurity" });
    expect(none.items).toEqual([]);
    expect(a2.userId).toBe(alice.user.id);
    await expectInvalidField(
      market.listings.search(ANON, { userId: "nope" }),
      "userId",
      "userId: must be a UUID",
    );
  });

  it("hides paused and expired listings from the default search", async () => {
    const { deps, market, alice, a1, a2 } = await seeded();
    await market.listings.update(alice.actor, { id: a1.id, status: "paused" });
    const expiring = await create(market, alice.actor, {
      expiresAt: new Date(deps.clock.now().getTime() + HOUR).toISOString(),
    });
    expect((await market.listings.search(ANON, { userId: alice.user.id })).items.map((l) => l.id)).toEqual([
      expiring.id,
      a2.id,
    ]);
    deps.clock.advance(HOUR);
    expect((await market.listings.search(ANON, { userId: alice.user.id })).items.map((l) => l.id)).toEqual([
      a2.id,
    ]);
  });

  it("allows other statuses only for one's own listings or an admin", async () => {
    const { deps, market, alice, bob, a1, a2, b1 } = await seeded();
    await market.listings.update(alice.actor, { id: a1.id, status: "paused" });
    await market.listings.update(bob.actor, { id: b1.id, status: "paused" });
    const expiring = await create(market, alice.actor, {
      expiresAt: new Date(deps.clock.now().getTime() + HOUR).toISOString(),
    });
    deps.clock.advance(2 * HOUR);

    const paused = await market.listings.search(alice.actor, { userId: alice.user.id, status: "paused" });
    expect(paused.items.map((l) => l.id)).toEqual([a1.id]);
    const expired = await market.listings.search(alice.actor, { userId: alice.user.id, status: "expired" });
    expect(expired.items.map((l) => l.id)).toEqual([expiring.id]);
    const all = await market.listings.search(alice.actor, { userId: alice.user.id, status: "all" });
    expect(all.items.map((l) => l.id)).toEqual([expiring.id, a2.id, a1.id]);
    const active = await market.listings.search(alice.actor, { userId: alice.user.id, status: "active" });
    expect(active.items.map((l) => l.id)).toEqual([a2.id]);

    const shouting = await market.listings.search(alice.actor, {
      userId: alice.user.id.toUpperCase(),
      status: "paused",
    });
    expect(shouting.items.map((l) => l.id)).toEqual([a1.id]);

    await expectCode(
      market.listings.search(alice.actor, { userId: bob.user.id, status: "paused" }),
      "forbidden",
    );
    await expectCode(market.listings.search(alice.actor, { status: "paused" }), "forbidden");
    await expectCode(market.listings.search(ANON, { userId: alice.user.id, status: "all" }), "forbidden");
    await expectCode(market.listings.search(ANON, { status: "expired" }), "forbidden");
    await expectCode(market.listings.search(ANON, untyped({ status: "deleted" })), "invalid_input");

    const admin = (await logInAdmin(market)).actor;
    const adminPaused = await market.listings.search(admin, { status: "paused" });
    expect(adminPaused.items.map((l) => l.id)).toEqual([b1.id, a1.id]);
    const adminBob = await market.listings.search(admin, { userId: bob.user.id, status: "paused" });
    expect(adminBob.items.map((l) => l.id)).toEqual([b1.id]);
  });

  it("defaults limit to 20, clamps it to 100 and refuses non-integers and values below 1", async () => {
    const { market } = setup({ slots: { personal: 200, business: 200, admin: 200 } });
    const { actor } = await signUpAndLogIn(market, "many@example.com");
    for (let i = 0; i < 105; i++) await create(market, actor, { title: `Service ${i}` });

    const first = await market.listings.search(ANON, {});
    expect(first.items).toHaveLength(20);
    expect(first.nextCursor).not.toBeNull();
    expect((await market.listings.search(ANON, { limit: 500 })).items).toHaveLength(100);
    expect((await market.listings.search(ANON, { limit: "7" })).items).toHaveLength(7);
    expect((await market.listings.search(ANON, { limit: 1 })).items).toHaveLength(1);
    for (const limit of [0, -1, 1.5, "abc", "1.5", "-3", ""]) {
      await expectCode(market.listings.search(ANON, { limit }), "invalid_input");
    }
  });

  it("pages through every result with cursors, newest first, without duplicates", async () => {
    const { market } = setup({ slots: { personal: 200, business: 200, admin: 200 } });
    const { actor } = await signUpAndLogIn(market, "pager@example.com");
    const created: string[] = [];
    for (let i = 0; i < 23; i++) created.push((await create(market, actor, { title: `Item ${i}` })).id);

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: { items: Listing[]; nextCursor: string | null } = await market.listings.search(ANON, {
        limit: 5,
        ...(cursor === null ? {} : { cursor }),
      });
      seen.push(...page.items.map((l) => l.id));
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== null && pages < 20);

    expect(pages).toBe(5);
    expect(new Set(seen).size).toBe(23);
    expect(seen).toEqual([...created].reverse());
    expect(seen).toEqual([...seen].sort().reverse());
  });

  it("ends a page where the storage stopped short, and goes on below that point", async () => {
    const { deps, market } = setup();
    const { actor } = await signUpAndLogIn(market, "short@example.com");
    const created: string[] = [];
    for (let i = 0; i < 4; i++) created.push((await create(market, actor, { title: `Item ${i}` })).id);
    const newest = created[3]!;
    const search = deps.repos.listings.search.bind(deps.repos.listings);
    // As PostgreSQL's bounded search may: from the top, it examined only the newest listing.
    deps.repos.listings.search = async (query, now) => {
      const rows = await search(query, now);
      return query.before === undefined ? Object.assign(rows.slice(0, 1), { resumeBefore: newest }) : rows;
    };
    const first = await market.listings.search(ANON, { limit: 3 });
    expect(first.items.map((l) => l.id)).toEqual([newest]);
    expect(first.nextCursor).not.toBeNull();
    const second = await market.listings.search(ANON, { limit: 3, cursor: first.nextCursor! });
    expect(second.items.map((l) => l.id)).toEqual(created.slice(0, 3).reverse());
    expect(second.nextCursor).toBeNull();
  });

  it("refuses a resume point at or above the cursor, which would page forever", async () => {
    const { deps, market } = setup();
    const { actor } = await signUpAndLogIn(market, "loop@example.com");
    const newer = await create(market, actor);
    deps.repos.listings.search = async () => Object.assign([], { resumeBefore: newer.id });
    const cursor = (await market.listings.search(ANON, {})).nextCursor!;
    await expect(market.listings.search(ANON, { cursor })).rejects.toThrow(/resumed at or above/);
  });

  it("refuses an invalid cursor", async () => {
    const { market } = await seeded();
    await expectCode(market.listings.search(ANON, { cursor: "not-a-cursor" }), "invalid_input");
    await expectCode(market.listings.search(ANON, { cursor: "!!!" }), "invalid_input");
    await expectCode(market.listings.search(ANON, { cursor: btoa("hello") }), "invalid_input");
  });
});

describe("listings.get and recordView", () => {
  it("returns a listing whatever its status; malformed or unknown ids are listing_not_found", async () => {
    const { deps, market } = setup();
    const { actor } = await signUpAndLogIn(market, "a@example.com");
    const listing = await create(market, actor, {
      expiresAt: new Date(deps.clock.now().getTime() + HOUR).toISOString(),
    });
    await market.listings.update(actor, { id: listing.id, status: "paused" });
    await expect(market.listings.get({ id: listing.id })).resolves.toMatchObject({
      id: listing.id,
      status: "paused",
    });
    await market.listings.update(actor, { id: listing.id, status: "active" });
    deps.clock.advance(2 * HOUR);
    await expect(market.listings.get({ id: listing.id })).resolves.toMatchObject({ id: listing.id });
    await expect(market.listings.get({ id: listing.id.toUpperCase() })).resolves.toMatchObject({
      id: listing.id,
    });

    await expectCode(market.listings.get({ id: crypto.randomUUID() }), "listing_not_found");
    await expectCode(market.listings.get({ id: "not-a-uuid" }), "listing_not_found");
    await expectCode(market.listings.get({ id: "" }), "listing_not_found");
  });

  it("counts views; unknown ids are listing_not_found and malformed ones invalid_input", async () => {
    const { market } = setup();
    const { actor } = await signUpAndLogIn(market, "a@example.com");
    const listing = await create(market, actor);
    await market.listings.recordView({ id: listing.id });
    expect((await market.listings.get({ id: listing.id })).views).toBe(1);
    await expectCode(market.listings.recordView({ id: crypto.randomUUID() }), "listing_not_found");
    await expectInvalidField(market.listings.recordView({ id: "not-a-uuid" }), "id", "id: must be a UUID");
  });

  it("adds exactly N for N concurrent views", async () => {
    const { market } = setup();
    const { actor } = await signUpAndLogIn(market, "a@example.com");
    const listing = await create(market, actor);
    await Promise.all(Array.from({ length: 20 }, () => market.listings.recordView({ id: listing.id })));
    expect((await market.listings.get({ id: listing.id })).views).toBe(20);
  });
});

describe("listings.update", () => {
  it("lets the author change every editable field and ignores the rest", async () => {
    const { deps, market } = setup();
    const { user, actor } = await signUpAndLogIn(market, "a@example.com");
    const other = await signUpAndLogIn(market, "other@example.com");
    const listing = await create(market, actor, { price: 10, contactEmail: "x@example.com" });
    const expires = new Date(deps.clock.now().getTime() + DAY);
    const updated = await market.listings.update(
      actor,
      untyped({
        id: listing.id,
        title: "New title",
        description: "New description",
        price: "99.5",
        category: "legal-consulting",
        condition: "excellent",
        images: ["https://img.example.com/new.png"],
        structuredData: { v: 2 },
        contactEmail: "new@example.com",
        expiresAt: expires.toISOString(),
        status: "paused",
        // Not editable: ignored.
        userId: other.user.id,
        views: 1000,
        createdAt: "2000-01-01T00:00:00Z",
      }),
    );
    expect(updated).toMatchObject({
      id: listing.id,
      userId: user.id,
      views: 0,
      title: "New title",
      description: "New description",
      price: 99.5,
      category: "legal-consulting",
      condition: "excellent",
      images: ["https://img.example.com/new.png"],
      structuredData: { v: 2 },
      contactEmail: "new@example.com",
      expiresAt: expires,
      status: "paused",
      createdAt: listing.createdAt,
    });
    await expect(market.listings.get({ id: listing.id })).resolves.toEqual(updated);

    const cleared = await market.listings.update(actor, {
      id: listing.id,
      price: null,
      contactEmail: null,
      expiresAt: null,
    });
    expect(cleared).toMatchObject({ price: null, contactEmail: null, expiresAt: null, title: "New title" });
  });

  it("validates the changes", async () => {
    const { market } = setup();
    const { actor } = await signUpAndLogIn(market, "a@example.com");
    const listing = await create(market, actor);
    await expectCode(
      market.listings.update(actor, { id: listing.id, title: "t".repeat(201) }),
      "invalid_input",
    );
    await expectCode(
      market.listings.update(actor, untyped({ id: listing.id, status: "expired" })),
      "invalid_input",
    );
    await expectCode(
      market.listings.update(actor, untyped({ id: listing.id, category: "nope" })),
      "invalid_input",
    );
    await expectCode(
      market.listings.update(actor, { id: listing.id, images: ["file:///etc/passwd"] }),
      "invalid_input",
    );
    await expectCode(market.listings.update(actor, { id: listing.id, expiresAt: "soon" }), "invalid_input");
    await expect(market.listings.get({ id: listing.id })).resolves.toEqual(listing);
  });

  it("lets an admin edit, forbids other users, and reports unknown and malformed ids", async () => {
    const { market } = setup();
    const author = await signUpAndLogIn(market, "author@example.com");
    const other = await signUpAndLogIn(market, "other@example.com");
    const admin = (await logInAdmin(market)).actor;
    const listing = await create(market, author.actor);

    await expectCode(market.listings.update(other.actor, { id: listing.id, title: "Mine now" }), "forbidden");
    await expect(
      market.listings.update(admin, { id: listing.id, title: "Moderated" }),
    ).resolves.toMatchObject({
      title: "Moderated",
      userId: author.user.id,
    });
    await expectCode(
      market.listings.update(author.actor, { id: crypto.randomUUID(), title: "x" }),
      "listing_not_found",
    );
    await expectInvalidField(
      market.listings.update(author.actor, { id: "not-a-uuid", title: "x" }),
      "id",
      "id: must be a UUID",
    );
    await expectCode(market.listings.update(ANON, { id: listing.id, title: "x" }), "unauthenticated");
    expect((await market.listings.get({ id: listing.id })).title).toBe("Moderated");
  });
});

describe("listings.delete", () => {
  it("lets the author delete, keeping the messages about it", async () => {
    const { market } = setup();
    const author = await signUpAndLogIn(market, "author@example.com");
    const buyer = await signUpAndLogIn(market, "buyer@example.com");
    const listing = await create(market, author.actor);
    const message = await market.messages.send(buyer.actor, {
      listingId: listing.id,
      receiverId: author.user.id,
      content: "Hello",
    });
    await market.listings.delete(author.actor, { id: listing.id });
    await expectCode(market.listings.get({ id: listing.id }), "listing_not_found");
    const inbox = await market.messages.list(author.actor, {});
    expect(inbox.items.map((m) => m.id)).toEqual([message.id]);
  });

  it("lets an admin delete, forbids other users, and reports unknown and malformed ids", async () => {
    const { market } = setup();
    const author = await signUpAndLogIn(market, "author@example.com");
    const other = await signUpAndLogIn(market, "other@example.com");
    const admin = (await logInAdmin(market)).actor;
    const first = await create(market, author.actor);
    const second = await create(market, author.actor);

    await expectCode(market.listings.delete(other.actor, { id: first.id }), "forbidden");
    await expect(market.listings.get({ id: first.id })).resolves.toHaveProperty("id", first.id);
    await market.listings.delete(admin, { id: first.id });
    await expectCode(market.listings.get({ id: first.id }), "listing_not_found");
    await expectCode(market.listings.delete(author.actor, { id: first.id }), "listing_not_found");
    await expectInvalidField(market.listings.delete(author.actor, { id: "not-a-uuid" }), "id");
    await expectCode(market.listings.delete(ANON, { id: second.id }), "unauthenticated");
    await expect(market.listings.get({ id: second.id })).resolves.toHaveProperty("id", second.id);
  });
});

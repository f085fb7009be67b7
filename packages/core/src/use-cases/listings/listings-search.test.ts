import { describe, expect, it } from "vitest";
import {
  ANON,
  collectPages,
  expectCode,
  expectInvalidField,
  setup,
  untyped,
} from "../../testing/use-case-kit.js";
import { create, HOUR } from "./listings-test-support.js";

describe("listings.search", () => {
  async function seeded() {
    const kit = setup({ slots: { personal: 200, business: 200, admin: 200 } });
    const { market } = kit;
    const alice = await kit.signUpAndLogIn("alice@example.com");
    const bob = await kit.signUpAndLogIn("bob@example.com");
    const a1 = await create(market, alice.actor, {
      title: "Kubernetes Consulting",
      category: "software-development",
    });
    const a2 = await create(market, alice.actor, { title: "Brand strategy", category: "digital-marketing" });
    const b1 = await create(market, bob.actor, { title: "Penetration testing", category: "cybersecurity" });
    const b2 = await create(market, bob.actor, { title: "KUBERNETES audit", category: "cybersecurity" });
    return { ...kit, alice, bob, a1, a2, b1, b2 };
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
    const { deps, market, logInAdmin, alice, bob, a1, a2, b1 } = await seeded();
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

    const admin = (await logInAdmin()).actor;
    const adminPaused = await market.listings.search(admin, { status: "paused" });
    expect(adminPaused.items.map((l) => l.id)).toEqual([b1.id, a1.id]);
    const adminBob = await market.listings.search(admin, { userId: bob.user.id, status: "paused" });
    expect(adminBob.items.map((l) => l.id)).toEqual([b1.id]);
  });

  it("defaults limit to 20, clamps it to 100 and refuses non-integers and values below 1", async () => {
    const { market, signUpAndLogIn } = setup({ slots: { personal: 200, business: 200, admin: 200 } });
    const { actor } = await signUpAndLogIn("many@example.com");
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
    const { market, signUpAndLogIn } = setup({ slots: { personal: 200, business: 200, admin: 200 } });
    const { actor } = await signUpAndLogIn("pager@example.com");
    const created: string[] = [];
    for (let i = 0; i < 23; i++) created.push((await create(market, actor, { title: `Item ${i}` })).id);

    const { seen, pages } = await collectPages(
      (cursor) => market.listings.search(ANON, { limit: 5, ...cursor }),
      20,
    );

    expect(pages).toBe(5);
    expect(new Set(seen).size).toBe(23);
    expect(seen).toEqual([...created].reverse());
    expect(seen).toEqual([...seen].sort().reverse());
  });

  it("ends a page where the storage stopped short, and goes on below that point", async () => {
    const { deps, market, signUpAndLogIn } = setup();
    const { actor } = await signUpAndLogIn("short@example.com");
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
    const { deps, market, signUpAndLogIn } = setup();
    const { actor } = await signUpAndLogIn("loop@example.com");
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

import { describe, expect, test } from "vitest";
import { expectError, harness, UNKNOWN_ID, withListing } from "./helpers.js";

const LISTING_KEYS = [
  "category",
  "condition",
  "contact_email",
  "created_at",
  "description",
  "expires_at",
  "id",
  "images",
  "price",
  "price_unit",
  "status",
  "structured_data",
  "title",
  "user_id",
  "views",
];

describe("POST /api/listings", () => {
  test("201 {message, listing} with a JWT or an API key; defaults applied", async () => {
    const h = harness();
    const s = await h.signUp();
    const res = await h.call("POST", "/api/listings", {
      token: s.token,
      body: { title: "Pen test", description: "External test", category: "cybersecurity", price: "1500" },
    });
    expect(res.status).toBe(201);
    const body = await h.json<{ message: string; listing: Record<string, unknown> }>(res);
    expect(body.message).toBe("Listing created");
    expect(Object.keys(body.listing).sort()).toEqual(LISTING_KEYS);
    expect(body.listing).toMatchObject({
      price: 1500,
      price_unit: "fixed",
      condition: "good",
      images: [],
      structured_data: { ai_generated: true },
      status: "active",
      user_id: s.id,
      views: 0,
      created_at: "2026-01-01T00:00:00.000Z",
    });
    const key = await h.apiKey(s);
    const withKey = await h.call("POST", "/api/listings", {
      key,
      body: { title: "B", description: "B", category: "data-analytics", expires_at: "2026-02-01T00:00:00Z" },
    });
    expect(withKey.status).toBe(201);
    expect((await h.json<{ listing: { expires_at: string } }>(withKey)).listing.expires_at).toBe(
      "2026-02-01T00:00:00.000Z",
    );
  });

  test("401 without credentials, even with an invalid body; 400 names the field", async () => {
    const h = harness();
    const anon = await h.call("POST", "/api/listings", { body: {} });
    await expectError(anon, 401, { error: "Authentication required", code: "unauthenticated" });
    const s = await h.signUp();
    const res = await h.call("POST", "/api/listings", {
      token: s.token,
      body: { title: "x", description: "y" },
    });
    await expectError(res, 400, { error: "category: is required", code: "invalid_input" });
  });

  test("403 listing_limit_reached when the slots are full", async () => {
    const h = harness();
    const s = await h.signUp();
    for (let i = 0; i < 5; i++) await h.listing(s, { title: `L${i}` });
    const res = await h.call("POST", "/api/listings", {
      token: s.token,
      body: { title: "six", description: "d", category: "cybersecurity" },
    });
    await expectError(res, 403, { error: "Listing limit reached", code: "listing_limit_reached" });
  });
});

describe("GET /api/listings", () => {
  test("{items, count, next_cursor}; filters and paging", async () => {
    const h = harness();
    const s = await h.signUp();
    await h.listing(s, { title: "Alpha audit", category: "cybersecurity" });
    await h.listing(s, { title: "Beta build", category: "software-development" });
    await h.listing(s, { title: "Gamma audit", category: "cybersecurity" });
    const all = await h.json<{ items: { title: string }[]; count: number; next_cursor: string | null }>(
      await h.call("GET", "/api/listings"),
    );
    expect(all.count).toBe(3);
    expect(all.next_cursor).toBeNull();
    expect(all.items.map((l) => l.title)).toEqual(["Gamma audit", "Beta build", "Alpha audit"]);
    const search = await h.json<{ count: number }>(
      await h.call("GET", "/api/listings?search=AUDIT&category=cybersecurity"),
    );
    expect(search.count).toBe(2);
    const page = await h.json<{ items: unknown[]; next_cursor: string }>(
      await h.call("GET", "/api/listings?limit=2"),
    );
    expect(page.items).toHaveLength(2);
    expect(page.next_cursor).toEqual(expect.any(String));
    const rest = await h.json<{ count: number; next_cursor: null }>(
      await h.call("GET", `/api/listings?limit=2&cursor=${encodeURIComponent(page.next_cursor)}`),
    );
    expect(rest).toMatchObject({ count: 1, next_cursor: null });
  });

  test("q, price range, sorts with their cursors, and facets", async () => {
    const h = harness();
    const s = await h.signUp();
    await h.listing(s, {
      title: "Pentest offer",
      description: "Penetration Testing for SaaS Startups",
      category: "cybersecurity",
      price: 4800,
    });
    await h.listing(s, {
      title: "Café branding",
      description: "Logos",
      category: "ux-ui-design",
      price: 900,
    });
    await h.listing(s, {
      title: "Penetration testing retainer",
      description: "Monthly",
      category: "cybersecurity",
      price: 1500,
    });
    type Page = {
      items: { title: string }[];
      count: number;
      next_cursor: string | null;
      facets?: { category: Record<string, number> };
      facets_capped?: boolean;
    };
    const get = async (query: string) => h.json<Page>(await h.call("GET", `/api/listings?${query}`));
    // Relevance: the title match first, then the listing that needs its description.
    const found = await get("q=penetration&facets=category");
    expect(found.items.map((l) => l.title)).toEqual(["Penetration testing retainer", "Pentest offer"]);
    expect(found).toMatchObject({ facets: { category: { cybersecurity: 2 } }, facets_capped: false });
    expect((await get("q=CAFE")).items.map((l) => l.title)).toEqual(["Café branding"]);
    expect((await get("q=pen")).count).toBe(2);
    expect((await get("min_price=1000&max_price=2000")).items.map((l) => l.title)).toEqual([
      "Penetration testing retainer",
    ]);
    expect(await get("")).not.toHaveProperty("facets");
    const titles: string[] = [];
    let cursor: string | null = "";
    while (cursor !== null) {
      const page: Page = await get(
        `sort=price_asc&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      );
      titles.push(...page.items.map((l) => l.title));
      cursor = page.next_cursor;
    }
    expect(titles).toEqual(["Café branding", "Penetration testing retainer", "Pentest offer"]);
  });

  test("400 invalid_input on a bad q, price, sort, facets or cursor, naming the parameter", async () => {
    const h = harness();
    await h.listing(await h.signUp(), { title: "One", price: 5 });
    await h.listing(await h.signUp(), { title: "Two", price: 6 });
    const cursor = (
      await h.json<{ next_cursor: string }>(await h.call("GET", "/api/listings?sort=price_asc&limit=1"))
    ).next_cursor;
    for (const [query, field] of [
      [`q=${"x".repeat(201)}`, "q"],
      ["q=a+b+c+d+e+f+g+h+i", "q"],
      ["min_price=cheap", "min_price"],
      ["max_price=-3", "max_price"],
      ["min_price=10&max_price=5", "min_price"],
      ["sort=popular", "sort"],
      ["facets=price", "facets"],
      [`sort=price_desc&cursor=${encodeURIComponent(cursor)}`, "cursor"],
    ]) {
      const res = await h.call("GET", `/api/listings?${query}`);
      expect(res.status, query).toBe(400);
      const body = await h.json<{ error: string; code: string }>(res);
      expect(body.code, query).toBe("invalid_input");
      expect(body.error.startsWith(`${field}:`), `${query}: ${body.error}`).toBe(true);
    }
  });

  test("400 on a bad query, naming the parameter", async () => {
    const h = harness();
    for (const [query, field] of [
      ["limit=0", "limit"],
      ["limit=abc", "limit"],
      ["category=nope", "category"],
      ["user_id=123", "user_id"],
    ]) {
      const res = await h.call("GET", `/api/listings?${query}`);
      expect(res.status).toBe(400);
      expect((await h.json<{ error: string }>(res)).error.startsWith(`${field}:`)).toBe(true);
    }
  });

  test("status=paused of another user is 403; own is allowed", async () => {
    const h = harness();
    const s = await h.signUp();
    const other = await h.signUp();
    expect(
      (await h.call("GET", `/api/listings?status=paused&user_id=${s.id}`, { token: other.token })).status,
    ).toBe(403);
    expect(
      (await h.call("GET", `/api/listings?status=paused&user_id=${s.id}`, { token: s.token })).status,
    ).toBe(200);
  });

  test("an expired listing shows status expired (effective status at the clock)", async () => {
    const h = harness();
    const s = await h.signUp();
    const listing = await h.listing(s, { expires_at: "2026-01-02T00:00:00.000Z" });
    h.deps.clock.advance(2 * 24 * 3600 * 1000);
    const res = await h.json<{ listing: { status: string } }>(
      await h.call("GET", `/api/listings/${listing.id}`),
    );
    expect(res.listing.status).toBe("expired");
  });
});

describe("GET /api/listings/{id} and POST view", () => {
  test("get returns {listing}; unknown and malformed ids are 404 Listing not found", async () => {
    const h = harness();
    const s = await h.signUp();
    const listing = await h.listing(s);
    const res = await h.call("GET", `/api/listings/${listing.id}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ listing });
    for (const id of [UNKNOWN_ID, "not-a-uuid"]) {
      const missing = await h.call("GET", `/api/listings/${id}`);
      await expectError(missing, 404, { error: "Listing not found", code: "listing_not_found" });
    }
  });

  test("view counts one; unknown 404; malformed 400", async () => {
    const h = harness();
    const s = await h.signUp();
    const listing = await h.listing(s);
    const res = await h.call("POST", `/api/listings/${listing.id}/view`);
    expect(await res.json()).toEqual({ success: true });
    await h.call("POST", `/api/listings/${listing.id}/view`);
    const after = await h.json<{ listing: { views: number } }>(
      await h.call("GET", `/api/listings/${listing.id}`),
    );
    expect(after.listing.views).toBe(2);
    const unknown = await h.call("POST", `/api/listings/${UNKNOWN_ID}/view`);
    await expectError(unknown, 404, { error: "Listing not found", code: "listing_not_found" });
    expect((await h.call("POST", "/api/listings/xyz/view")).status).toBe(400);
  });
});

describe("PATCH and DELETE /api/listings/{id}", () => {
  test("the author edits and pauses; others 403; unknown 404; malformed 400", async () => {
    const { h, author, buyer, listing } = await withListing();
    const res = await h.call("PATCH", `/api/listings/${listing.id}`, {
      token: author.token,
      body: { title: "Renamed", status: "paused" },
    });
    expect(res.status).toBe(200);
    expect((await h.json<{ listing: Record<string, unknown> }>(res)).listing).toMatchObject({
      title: "Renamed",
      status: "paused",
    });
    const forbidden = await h.call("PATCH", `/api/listings/${listing.id}`, {
      token: buyer.token,
      body: { title: "X" },
    });
    expect(forbidden.status).toBe(403);
    expect(await forbidden.json()).toMatchObject({ code: "forbidden" });
    const unknown = await h.call("PATCH", `/api/listings/${UNKNOWN_ID}`, {
      token: author.token,
      body: { title: "X" },
    });
    expect(unknown.status).toBe(404);
    const malformed = await h.call("PATCH", "/api/listings/123", {
      token: author.token,
      body: { title: "X" },
    });
    expect(malformed.status).toBe(400);
    const badField = await h.call("PATCH", `/api/listings/${listing.id}`, {
      token: author.token,
      body: { status: "expired" },
    });
    expect(await badField.json()).toEqual({
      error: "status: must be active or paused",
      code: "invalid_input",
    });
    expect((await h.call("PATCH", `/api/listings/${listing.id}`, { body: { title: "X" } })).status).toBe(401);
  });

  test("delete by the author with an API key; others 403; unknown 404", async () => {
    const { h, author, buyer, listing } = await withListing();
    expect((await h.call("DELETE", `/api/listings/${listing.id}`, { token: buyer.token })).status).toBe(403);
    const key = await h.apiKey(author);
    const res = await h.call("DELETE", `/api/listings/${listing.id}`, { key });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true });
    expect((await h.call("GET", `/api/listings/${listing.id}`)).status).toBe(404);
    expect((await h.call("DELETE", `/api/listings/${listing.id}`, { key })).status).toBe(404);
    expect((await h.call("DELETE", `/api/listings/${listing.id}`)).status).toBe(401);
  });

  test("an admin may edit and delete any listing", async () => {
    const { h, listing } = await withListing();
    const admin = await h.admin();
    const patched = await h.call("PATCH", `/api/listings/${listing.id}`, {
      token: admin.token,
      body: { price: 10 },
    });
    expect(patched.status).toBe(200);
    expect((await h.call("DELETE", `/api/listings/${listing.id}`, { token: admin.token })).status).toBe(200);
  });
});

import { describe, expect, it } from "vitest";
import { arr, expectError, expectStatus, ids, str } from "../../support/http.js";
import { accountsBeforeAll } from "../../support/scenario.js";
import type { World } from "../../support/world.js";

const UNKNOWN = "0190f5c2-0000-7000-8000-000000000000";

/** Create, search, get, view and delete listings over HTTP (edits: listing-edits.ts). */
export function listingScenario(world: () => World): void {
  describe("listings", () => {
    const [author, other] = accountsBeforeAll(world, "author", "other");

    it("creates a listing with an API key, with the documented defaults", async () => {
      const { api } = world();
      const reply = await api.post("/api/listings", {
        apiKey: author.key,
        body: { title: "Cloud migration", description: "Lift and shift.", category: "software-development" },
      });
      expectStatus(reply, 201);
      expect(reply.body).toEqual({
        message: expect.any(String),
        listing: {
          id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          title: "Cloud migration",
          description: "Lift and shift.",
          price: null,
          price_unit: "fixed",
          category: "software-development",
          condition: "good",
          images: [],
          user_id: author.id,
          structured_data: { ai_generated: true },
          status: "active",
          contact_email: null,
          expires_at: null,
          views: 0,
          created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        },
      });
    });

    it("creates a listing with a JWT, every field given, a numeric-string price accepted", async () => {
      const expires = new Date(Date.now() + 86_400_000).toISOString();
      const reply = await world().api.post("/api/listings", {
        token: other.token,
        body: {
          title: "Brand refresh",
          description: "Logo and guide.",
          category: "ux-ui-design",
          price: "1500.50",
          condition: "new",
          images: ["https://example.com/a.png"],
          structured_data: { weeks: 3 },
          contact_email: "studio@example.com",
          expires_at: expires,
          views: 99,
          user_id: author.id,
        },
      });
      expectStatus(reply, 201);
      expect(reply.body.listing).toMatchObject({
        price: 1500.5,
        condition: "new",
        images: ["https://example.com/a.png"],
        structured_data: { weeks: 3 },
        contact_email: "studio@example.com",
        expires_at: expires,
        // Fields a caller may not set are ignored.
        views: 0,
        user_id: other.id,
      });
    });

    it("searches by category, all, case-insensitive title term and user_id, newest first", async () => {
      const w = world();
      const seller = await w.account("seller");
      const a = str((await w.listing(seller, { title: "Zebra analytics review" })).id);
      const b = str(
        (await w.listing(seller, { title: "zebra SECURITY audit", category: "cybersecurity" })).id,
      );
      const c = str((await w.listing(seller, { title: "Plain data work" })).id);
      const d = str(
        (await w.listing(other, { title: "ZEBRA strategy", category: "strategic-consulting" })).id,
      );
      const search = async (query: string) => {
        const reply = await w.api.get(`/api/listings?${query}`);
        expectStatus(reply, 200);
        expect(reply.body.count).toBe(arr(reply.body.items).length);
        return ids(reply.body.items);
      };
      expect(await search(`user_id=${seller.id}`)).toEqual([c, b, a]);
      expect(await search(`user_id=${seller.id}&category=data-analytics`)).toEqual([c, a]);
      expect(await search(`user_id=${seller.id}&category=all`)).toEqual([c, b, a]);
      expect(await search("search=zEbRa")).toEqual([d, b, a]);
      expect(await search("search=ZEBRA&category=cybersecurity")).toEqual([b]);
      expect(await search(`search=zebra&user_id=${other.id}`)).toEqual([d]);
      expect(await search("search=no-such-title-anywhere")).toEqual([]);
      // The term is a literal substring: LIKE wildcards match only themselves; case folds beyond ASCII.
      const e = str((await w.listing(seller, { title: "Über 100% under_score" })).id);
      expect(await search("search=%25")).toEqual([e]);
      expect(await search("search=_")).toEqual([e]);
      expect(await search("search=%C3%BCBER")).toEqual([e]);
      expect(await search("search=%C3%9Cber")).toEqual([e]);
      expectStatus(await w.api.delete(`/api/listings/${e}`, { apiKey: seller.key }), 200);
      const all = await search("");
      expect(all.slice(0, 4)).toEqual([d, c, b, a]);
      expect(all.length).toBeLessThanOrEqual(20);
    });

    it("pages with limit and cursor, and refuses a bad limit or cursor", async () => {
      const w = world();
      const pager = await w.account("pager");
      const made: string[] = [];
      for (let i = 0; i < 5; i++) made.unshift(str((await w.listing(pager, { title: `Page ${i}` })).id));
      const seen: string[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < 5; page++) {
        const query: string = `user_id=${pager.id}&limit=2${cursor === null ? "" : `&cursor=${cursor}`}`;
        const reply = await w.api.get(`/api/listings?${query}`);
        expectStatus(reply, 200);
        expect(reply.body.count).toBe(page < 2 ? 2 : 1);
        seen.push(...ids(reply.body.items));
        const next: unknown = reply.body.next_cursor;
        cursor = next === null ? null : encodeURIComponent(str(next));
        if (cursor === null) break;
      }
      expect(seen).toEqual(made);
      // The default page is 20: the admin's slots allow more than a page of listings.
      for (let i = 0; i < 21; i++) await w.listing(w.admin, { title: `Bulk ${i}` });
      const firstPage = await w.api.get("/api/listings");
      expect(firstPage.body).toMatchObject({ count: 20, next_cursor: expect.any(String) });
      expect((await w.api.get("/api/listings?limit=500")).body.count).toBeGreaterThan(20);
      expectError(await w.api.get("/api/listings?limit=0"), 400, "invalid_input");
      expectError(await w.api.get("/api/listings?limit=abc"), 400, "invalid_input");
      expectError(await w.api.get("/api/listings?cursor=not-a-cursor"), 400, "invalid_input");
      expectError(await w.api.get("/api/listings?category=plumbing"), 400, "invalid_input");
    });

    it("gets a listing by id; an unknown or malformed id is 404 Listing not found", async () => {
      const w = world();
      const listing = await w.listing(author, { title: "Get me" });
      const reply = await w.api.get(`/api/listings/${str(listing.id)}`);
      expectStatus(reply, 200);
      expect(reply.body).toEqual({ listing });
      for (const id of [UNKNOWN, "not-a-uuid"]) {
        const missing = await w.api.get(`/api/listings/${id}`);
        expectError(missing, 404, "listing_not_found");
        expect(missing.body.error).toBe("Listing not found");
      }
    });

    it("counts views: each POST adds one, concurrent ones too; an unknown id is 404", async () => {
      const w = world();
      const id = str((await w.listing(author, { title: "Watch me" })).id);
      for (let i = 0; i < 3; i++) {
        const view = await w.api.post(`/api/listings/${id}/view`);
        expectStatus(view, 200);
        expect(view.body).toEqual({ success: true });
      }
      expect((await w.api.get(`/api/listings/${id}`)).body.listing?.views).toBe(3);
      // The increment is atomic (decisions.md): concurrent views all count.
      const views = await Promise.all(
        Array.from({ length: 10 }, () => w.api.post(`/api/listings/${id}/view`)),
      );
      expect(views.map((view) => view.status)).toEqual(Array(10).fill(200));
      expect((await w.api.get(`/api/listings/${id}`)).body.listing?.views).toBe(13);
      expectError(await w.api.post(`/api/listings/${UNKNOWN}/view`), 404, "listing_not_found");
    });

    it("deletes: another user 403, the author 200, then 404 everywhere", async () => {
      const w = world();
      const id = str((await w.listing(author, { title: "Short-lived" })).id);
      expectError(await w.api.delete(`/api/listings/${id}`, { apiKey: other.key }), 403, "forbidden");
      expectError(await w.api.delete(`/api/listings/${id}`), 401, "unauthenticated");
      const deleted = await w.api.delete(`/api/listings/${id}`, { apiKey: author.key });
      expectStatus(deleted, 200);
      expect(deleted.body).toEqual({ success: true });
      expectError(await w.api.get(`/api/listings/${id}`), 404, "listing_not_found");
      expectError(
        await w.api.delete(`/api/listings/${id}`, { token: author.token }),
        404,
        "listing_not_found",
      );
      expectError(
        await w.api.delete("/api/listings/not-a-uuid", { token: author.token }),
        400,
        "invalid_input",
      );
      expect(ids((await w.api.get(`/api/listings?user_id=${author.id}`)).body.items)).not.toContain(id);
    });
  });
}

import { describe, expect, it } from "vitest";
import { expectError, expectStatus, ids, str } from "../../support/http.js";
import { accountsBeforeAll } from "../../support/scenario.js";
import type { World } from "../../support/world.js";

const UNKNOWN = "0190f5c2-0000-7000-8000-000000000001";
const SLOTS = 5; // LISTING_SLOTS default for a personal account (decisions.md)

/** PATCH /api/listings/{id}: who may edit, pausing, and reactivation within slots. */
export function listingEditScenario(world: () => World): void {
  describe("listing edits", () => {
    const [author, other] = accountsBeforeAll(world, "editor", "intruder");

    it("lets the author edit with a key or a JWT; another user 403; unknown 404; no credentials 401", async () => {
      const w = world();
      const id = str((await w.listing(author, { title: "Draft title" })).id);
      const byKey = await w.api.patch(`/api/listings/${id}`, {
        apiKey: author.key,
        body: { title: "Final title", price: 900 },
      });
      expectStatus(byKey, 200);
      expect(byKey.body.listing).toMatchObject({ id, title: "Final title", price: 900, user_id: author.id });
      const byJwt = await w.api.patch(`/api/listings/${id}`, {
        token: author.token,
        body: { category: "digital-marketing" },
      });
      expectStatus(byJwt, 200);
      expect(byJwt.body.listing).toMatchObject({ title: "Final title", category: "digital-marketing" });
      expect((await w.api.get(`/api/listings/${id}`)).body.listing).toMatchObject({ title: "Final title" });

      expectError(
        await w.api.patch(`/api/listings/${id}`, { apiKey: other.key, body: { title: "Mine now" } }),
        403,
        "forbidden",
      );
      expectError(
        await w.api.patch(`/api/listings/${id}`, { body: { title: "Anyone" } }),
        401,
        "unauthenticated",
      );
      expectError(
        await w.api.patch(`/api/listings/${UNKNOWN}`, { apiKey: author.key, body: { title: "Ghost" } }),
        404,
        "listing_not_found",
      );
      expectError(
        await w.api.patch(`/api/listings/${id}`, { apiKey: author.key, body: { category: "plumbing" } }),
        400,
        "invalid_input",
      );
      expect((await w.api.get(`/api/listings/${id}`)).body.listing?.title).toBe("Final title");
    });

    it("lets an admin edit anyone's listing", async () => {
      const w = world();
      const id = str((await w.listing(author, { title: "Needs moderation" })).id);
      const reply = await w.api.patch(`/api/listings/${id}`, {
        token: w.admin.token,
        body: { title: "Moderated" },
      });
      expectStatus(reply, 200);
      expect(reply.body.listing).toMatchObject({ title: "Moderated", user_id: author.id });
    });

    it("hides a paused listing from search but still gets it; the author can list it by status", async () => {
      const w = world();
      const id = str((await w.listing(author, { title: "Pausable" })).id);
      const paused = await w.api.patch(`/api/listings/${id}`, {
        apiKey: author.key,
        body: { status: "paused" },
      });
      expectStatus(paused, 200);
      expect(paused.body.listing?.status).toBe("paused");
      expect(ids((await w.api.get(`/api/listings?user_id=${author.id}`)).body.items)).not.toContain(id);
      expect(ids((await w.api.get("/api/listings?search=pausable")).body.items)).toEqual([]);
      expect((await w.api.get(`/api/listings/${id}`)).body.listing?.status).toBe("paused");

      const own = await w.api.get(`/api/listings?user_id=${author.id}&status=paused`, { apiKey: author.key });
      expectStatus(own, 200);
      expect(ids(own.body.items)).toEqual([id]);
      expectError(
        await w.api.get(`/api/listings?user_id=${author.id}&status=paused`, { apiKey: other.key }),
        403,
        "forbidden",
      );
      expectError(await w.api.get(`/api/listings?user_id=${author.id}&status=all`), 403, "forbidden");

      const resumed = await w.api.patch(`/api/listings/${id}`, {
        token: author.token,
        body: { status: "active" },
      });
      expectStatus(resumed, 200);
      expect(ids((await w.api.get("/api/listings?search=PAUSABLE")).body.items)).toEqual([id]);
    });

    it("subjects reactivation and creation to the author's slots (403 when full)", async () => {
      const w = world();
      const full = await w.account("full");
      const made: string[] = [];
      for (let i = 0; i < SLOTS; i++) made.push(str((await w.listing(full, { title: `Slot ${i}` })).id));
      const first = made[0] ?? "";
      expectError(
        await w.api.post("/api/listings", {
          apiKey: full.key,
          body: { title: "One too many", description: "x", category: "data-analytics" },
        }),
        403,
        "listing_limit_reached",
      );
      expectStatus(
        await w.api.patch(`/api/listings/${first}`, { apiKey: full.key, body: { status: "paused" } }),
        200,
      );
      const limit = await w.api.get(`/api/profiles/limit?user_id=${full.id}`);
      expect(limit.body).toMatchObject({ canPost: true, active_listings_count: SLOTS - 1, maxSlots: SLOTS });
      await w.listing(full, { title: "Takes the freed slot" });

      const refused = await w.api.patch(`/api/listings/${first}`, {
        apiKey: full.key,
        body: { status: "active" },
      });
      expectError(refused, 403, "listing_limit_reached");
      expect((await w.api.get(`/api/listings/${first}`)).body.listing?.status).toBe("paused");

      expectStatus(await w.api.delete(`/api/listings/${made[1] ?? ""}`, { apiKey: full.key }), 200);
      const reactivated = await w.api.patch(`/api/listings/${first}`, {
        apiKey: full.key,
        body: { status: "active" },
      });
      expectStatus(reactivated, 200);
      expect(reactivated.body.listing?.status).toBe("active");
    });

    it("never lets concurrent creates overshoot the slots", async () => {
      const w = world();
      const racer = await w.account("racer");
      const body = { title: "Race", description: "x", category: "data-analytics" };
      const replies = await Promise.all(
        Array.from({ length: 2 * SLOTS }, () => w.api.post("/api/listings", { apiKey: racer.key, body })),
      );
      const statuses = replies.map((reply) => reply.status).sort();
      expect(statuses).toEqual([...Array(SLOTS).fill(201), ...Array(SLOTS).fill(403)]);
      const limit = await w.api.get(`/api/profiles/limit?user_id=${racer.id}`);
      expect(limit.body).toMatchObject({ canPost: false, active_listings_count: SLOTS });
    });
  });
}

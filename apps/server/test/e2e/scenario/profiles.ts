import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Mode } from "../../support/backends.js";
import { arr, expectError, expectStatus, findById, type Json, str } from "../../support/http.js";
import { accountsBeforeAll } from "../../support/scenario.js";
import { ADMIN, type World } from "../../support/world.js";

const UNKNOWN = "0190f5c2-0000-7000-8000-000000000003";

/** Profiles list, sync, admin check and listing limits, in the mode's rules. */
export function profileScenario(mode: Mode, world: () => World): void {
  describe("profiles", () => {
    const [owner, other] = accountsBeforeAll(world, "profile-owner", "profile-other");

    const profiles = async (auth: { token?: string; apiKey?: string } = {}): Promise<Json[]> => {
      const reply = await world().api.get("/api/profiles", auth);
      expectStatus(reply, 200);
      expect(reply.body).toMatchObject({ count: arr(reply.body.profiles).length, next_cursor: null });
      return arr(reply.body.profiles);
    };
    const find = findById;

    it("lists profiles; emails only to their owner and admins in strict mode, to all in legacy", async () => {
      const anonymous = await profiles();
      expect(find(anonymous, owner.id)).toMatchObject({
        id: owner.id,
        is_admin: false,
        account_type: "personal",
      });
      expect(find(anonymous, world().admin.id)).toMatchObject({ is_admin: true });
      const asOwner = await profiles({ apiKey: owner.key });
      expect(find(asOwner, owner.id)?.email).toBe(owner.email);
      const asAdmin = await profiles({ token: world().admin.token });
      expect(find(asAdmin, other.id)?.email).toBe(other.email);
      if (mode === "strict") {
        expect(anonymous.every((profile) => !("email" in profile))).toBe(true);
        expect(find(asOwner, other.id)).not.toHaveProperty("email");
      } else {
        expect(find(anonymous, other.id)?.email).toBe(other.email);
        expect(find(anonymous, world().admin.id)?.email).toBe(ADMIN.email);
      }
    });

    it("syncs a profile: own id (strict) or anyone (legacy); idempotent; 400 without id or email", async () => {
      const { api, admin } = world();
      const own = await api.post("/api/profiles/sync", {
        apiKey: owner.key,
        body: { id: owner.id, email: owner.email, display_name: "Renamed Owner" },
      });
      expectStatus(own, 200);
      expect(own.body).toMatchObject({
        success: true,
        profile: { id: owner.id, display_name: "Renamed Owner" },
      });
      const again = await api.post("/api/profiles/sync", {
        apiKey: owner.key,
        body: { id: owner.id, email: owner.email, display_name: "Renamed Owner" },
      });
      expect(again.body).toEqual(own.body);
      // A stored email never changes, and only an admin sets account_type.
      const upgrade = await api.post("/api/profiles/sync", {
        apiKey: owner.key,
        body: { id: owner.id, email: "changed@example.com", account_type: "business" },
      });
      expectStatus(upgrade, 200);
      expect(upgrade.body.profile).toMatchObject({ email: owner.email, account_type: "personal" });
      expectError(await api.post("/api/profiles/sync", { apiKey: owner.key, body: { id: owner.id } }), 400);
      expectError(
        await api.post("/api/profiles/sync", { apiKey: owner.key, body: { email: owner.email } }),
        400,
      );

      const fresh = { id: randomUUID(), email: `synced-${mode}@example.com`, account_type: "business" };
      if (mode === "strict") {
        expectError(await api.post("/api/profiles/sync", { body: fresh }), 401, "unauthenticated");
        const foreign = { id: other.id, email: other.email, display_name: "Hijacked" };
        expectError(
          await api.post("/api/profiles/sync", { token: owner.token, body: foreign }),
          403,
          "forbidden",
        );
        const byAdmin = await api.post("/api/profiles/sync", { token: admin.token, body: fresh });
        expectStatus(byAdmin, 200);
        expect(byAdmin.body.profile).toMatchObject({ id: fresh.id, account_type: "business" });
      } else {
        const anonymous = await api.post("/api/profiles/sync", { body: fresh });
        expectStatus(anonymous, 200);
        expect(anonymous.body).toMatchObject({
          success: true,
          profile: { id: fresh.id, account_type: "business" },
        });
        expectError(await api.post("/api/profiles/sync", { body: { email: "x@example.com" } }), 400);
      }
      expect(find(await profiles(), fresh.id)).toMatchObject({ account_type: "business" });
    });

    it("answers the admin check for admins, users and unknown ids; 400 without user_id", async () => {
      const { api, admin } = world();
      expect((await api.get(`/api/profiles/admin?user_id=${admin.id}`)).body).toEqual({ is_admin: true });
      expect((await api.get(`/api/profiles/admin?user_id=${owner.id}`)).body).toEqual({ is_admin: false });
      expect((await api.get(`/api/profiles/admin?user_id=${UNKNOWN}`)).body).toEqual({ is_admin: false });
      expectError(await api.get("/api/profiles/admin"), 400, "invalid_input");
    });

    it("reports listing slots (GET) and answers the same to POST, which moves nothing", async () => {
      const w = world();
      await w.listing(other, { title: "Counted" });
      const expected = { canPost: true, active_listings_count: 1, maxSlots: 5, account_type: "personal" };
      const get = await w.api.get(`/api/profiles/limit?user_id=${other.id}`);
      expectStatus(get, 200);
      expect(get.body).toEqual(expected);
      expectError(await w.api.get(`/api/profiles/limit?user_id=${UNKNOWN}`), 404, "user_not_found");
      expectError(await w.api.get("/api/profiles/limit"), 400, "invalid_input");

      const own = await w.api.post("/api/profiles/limit", { apiKey: other.key, body: { user_id: other.id } });
      expectStatus(own, 200);
      expect(own.body).toEqual(expected);
      const anonymous = await w.api.post("/api/profiles/limit", { body: { user_id: other.id } });
      if (mode === "strict") {
        expectError(anonymous, 401, "unauthenticated");
        const foreign = await w.api.post("/api/profiles/limit", {
          token: owner.token,
          body: { user_id: other.id },
        });
        expectError(foreign, 403, "forbidden");
        const byAdmin = await w.api.post("/api/profiles/limit", {
          token: w.admin.token,
          body: { user_id: other.id },
        });
        expect(byAdmin.body).toEqual(expected);
      } else {
        expectStatus(anonymous, 200);
        expect(anonymous.body).toEqual(expected);
      }
      expect((await w.api.get(`/api/profiles/limit?user_id=${other.id}`)).body).toEqual(expected);
      expect(str((await w.api.get(`/api/profiles/limit?user_id=${w.admin.id}`)).body.account_type)).toMatch(
        /^(personal|business)$/,
      );
    });
  });
}

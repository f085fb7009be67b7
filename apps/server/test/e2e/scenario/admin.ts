import { describe, expect, it } from "vitest";
import { arr, expectError, expectStatus, findById, ids, str } from "../../support/http.js";
import { accountsBeforeAll } from "../../support/scenario.js";
import type { World } from "../../support/world.js";

const UNKNOWN = "0190f5c2-0000-7000-8000-000000000005";

/** The admin endpoints with the admin ADMIN_EMAIL/ADMIN_PASSWORD created at start. */
export function adminScenario(world: () => World): void {
  describe("admin", () => {
    const [user] = accountsBeforeAll(world, "admin-subject");

    it("refuses anonymous callers (401), an admin's API key (401) and non-admins (403)", async () => {
      const { api, admin } = world();
      for (const [method, path] of [
        ["GET", "/api/admin/posts"],
        ["GET", "/api/admin/users"],
        ["DELETE", `/api/admin/posts/${UNKNOWN}`],
        ["DELETE", `/api/admin/users/${UNKNOWN}`],
      ] as const) {
        expectError(await api.send(method, path), 401, "unauthenticated");
        expectError(await api.send(method, path, { apiKey: admin.key }), 401, "unauthenticated");
        expectError(await api.send(method, path, { token: user.token }), 403, "admin_required");
      }
      expectError(
        await api.delete("/api/admin/posts", { token: user.token, body: { post_id: UNKNOWN } }),
        403,
      );
      expectError(
        await api.delete("/api/admin/users", { token: user.token, body: { user_id: UNKNOWN } }),
        403,
      );
    });

    it("lists every listing, paused ones included, and every user", async () => {
      const w = world();
      const paused = str((await w.listing(user, { title: "Paused for admin" })).id);
      expectStatus(
        await w.api.patch(`/api/listings/${paused}`, { apiKey: user.key, body: { status: "paused" } }),
        200,
      );
      const posts = await w.api.get("/api/admin/posts", { token: w.admin.token });
      expectStatus(posts, 200);
      expect(posts.body).toMatchObject({ count: arr(posts.body.posts).length, next_cursor: null });
      expect(findById(arr(posts.body.posts), paused)).toMatchObject({ status: "paused" });
      const users = await w.api.get("/api/admin/users", { token: w.admin.token });
      expectStatus(users, 200);
      expect(users.body).toMatchObject({ count: arr(users.body.users).length, next_cursor: null });
      expect(findById(arr(users.body.users), user.id)).toMatchObject({
        email: user.email,
        is_admin: false,
        active_listings_count: 0,
      });
      const page = await w.api.get("/api/admin/users?limit=1", { token: w.admin.token });
      expect(page.body).toMatchObject({ count: 1, next_cursor: expect.any(String) });
    });

    it("deletes a listing by body post_id and by path; 400 without post_id; 404 when unknown", async () => {
      const w = world();
      const token = w.admin.token;
      const byBody = str((await w.listing(user, { title: "Delete by body" })).id);
      const byPath = str((await w.listing(user, { title: "Delete by path" })).id);
      expectError(await w.api.delete("/api/admin/posts", { token, body: {} }), 400, "invalid_input");
      const first = await w.api.delete("/api/admin/posts", { token, body: { post_id: byBody } });
      expectStatus(first, 200);
      expect(first.body).toEqual({ success: true });
      const second = await w.api.delete(`/api/admin/posts/${byPath}`, { token });
      expectStatus(second, 200);
      expect(second.body).toEqual({ success: true });
      for (const id of [byBody, byPath])
        expectError(await w.api.get(`/api/listings/${id}`), 404, "listing_not_found");
      expectError(await w.api.delete(`/api/admin/posts/${byPath}`, { token }), 404);
      expectError(await w.api.delete("/api/admin/posts", { token, body: { post_id: UNKNOWN } }), 404);
    });

    it("deletes users by body and by path with their listings and keys; their credentials then get 401", async () => {
      const w = world();
      const token = w.admin.token;
      const [byBody, byPath] = await w.accounts("victim-body", "victim-path");
      for (const [how, victim] of [
        ["body", byBody],
        ["path", byPath],
      ] as const) {
        const listing = str((await w.listing(victim, { title: `Victim listing ${how}` })).id);
        const reply =
          how === "body"
            ? await w.api.delete("/api/admin/users", { token, body: { user_id: victim.id } })
            : await w.api.delete(`/api/admin/users/${victim.id}`, { token });
        expectStatus(reply, 200);
        expect(reply.body).toEqual({ success: true });
        expectError(await w.api.get(`/api/listings/${listing}`), 404, "listing_not_found");
        expect(ids((await w.api.get("/api/admin/posts", { token })).body.posts)).not.toContain(listing);
        expect(ids((await w.api.get("/api/keys", { token })).body.keys)).not.toContain(victim.keyId);
        expectError(await w.api.get("/api/auth/me", { apiKey: victim.key }), 401, "unauthenticated");
        expectError(await w.api.get("/api/keys", { token: victim.token }), 401, "unauthenticated");
        expect(ids((await w.api.get("/api/admin/users", { token })).body.users)).not.toContain(victim.id);
        expectError(await w.api.delete(`/api/admin/users/${victim.id}`, { token }), 404, "user_not_found");
      }
      expectError(await w.api.delete("/api/admin/users", { token, body: {} }), 400, "invalid_input");
    });

    it("cannot delete an admin (403), by body or by path", async () => {
      const { api, admin } = world();
      const byBody = await api.delete("/api/admin/users", {
        token: admin.token,
        body: { user_id: admin.id },
      });
      expectError(byBody, 403, "cannot_delete_admin");
      expectError(
        await api.delete(`/api/admin/users/${admin.id}`, { token: admin.token }),
        403,
        "cannot_delete_admin",
      );
      expect((await api.get(`/api/profiles/admin?user_id=${admin.id}`)).body).toEqual({ is_admin: true });
    });
  });
}

import { describe, expect, test } from "vitest";
import { expectError, harness, UNKNOWN_ID, withListing } from "./helpers.js";

describe("PUT /api/users/update", () => {
  test("JWT: {success, user}; no credentials 401; bad field 400", async () => {
    const h = harness();
    const s = await h.signUp();
    const res = await h.call("PUT", "/api/users/update", { token: s.token, body: { display_name: "Grace" } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ success: true, user: { id: s.id, display_name: "Grace" } });
    expect((await h.call("PUT", "/api/users/update", { body: { display_name: "X" } })).status).toBe(401);
    const empty = await h.call("PUT", "/api/users/update", { token: s.token, body: { display_name: "" } });
    expect(await empty.json()).toEqual({ error: "display_name: must not be empty", code: "invalid_input" });
  });
});

describe("/api/admin", () => {
  test("posts: {posts, count, next_cursor} of any status; delete by body and by path", async () => {
    const { h, author, listing: one } = await withListing();
    const admin = await h.admin();
    const two = await h.listing(author);
    await h.call("PATCH", `/api/listings/${two.id}`, { token: author.token, body: { status: "paused" } });
    const res = await h.json<{ posts: { status: string }[]; count: number; next_cursor: null }>(
      await h.call("GET", "/api/admin/posts", { token: admin.token }),
    );
    expect(res.count).toBe(2);
    expect(res.posts.map((p) => p.status).sort()).toEqual(["active", "paused"]);
    const byBody = await h.call("DELETE", "/api/admin/posts", {
      token: admin.token,
      body: { post_id: one.id },
    });
    expect(await byBody.json()).toEqual({ success: true });
    const byPath = await h.call("DELETE", `/api/admin/posts/${two.id}`, { token: admin.token });
    expect(await byPath.json()).toEqual({ success: true });
    expect((await h.call("DELETE", `/api/admin/posts/${two.id}`, { token: admin.token })).status).toBe(404);
    const missing = await h.call("DELETE", "/api/admin/posts", { token: admin.token, body: {} });
    await expectError(missing, 400, { error: "post_id: is required", code: "invalid_input" });
    expect((await h.call("DELETE", "/api/admin/posts/zzz", { token: admin.token })).status).toBe(400);
  });

  test("users: list; delete by body and path; an admin cannot be deleted", async () => {
    const h = harness();
    const a = await h.signUp();
    const b = await h.signUp();
    const admin = await h.admin();
    const list = await h.json<{ users: { id: string }[]; count: number; next_cursor: null }>(
      await h.call("GET", "/api/admin/users", { token: admin.token }),
    );
    expect(list.count).toBe(3);
    await h.listing(a);
    expect(
      await (
        await h.call("DELETE", "/api/admin/users", { token: admin.token, body: { user_id: a.id } })
      ).json(),
    ).toEqual({
      success: true,
    });
    expect((await h.call("GET", "/api/auth/me", { token: a.token })).status).toBe(401);
    expect((await h.call("DELETE", `/api/admin/users/${b.id}`, { token: admin.token })).status).toBe(200);
    expect((await h.call("DELETE", `/api/admin/users/${UNKNOWN_ID}`, { token: admin.token })).status).toBe(
      404,
    );
    const self = await h.call("DELETE", `/api/admin/users/${admin.id}`, { token: admin.token });
    await expectError(self, 403, { error: "Cannot delete an admin", code: "cannot_delete_admin" });
  });

  test("every admin route: 401 anonymous, 403 for a user JWT", async () => {
    const h = harness();
    const s = await h.signUp();
    const routes = [
      ["GET", "/api/admin/posts"],
      ["DELETE", "/api/admin/posts"],
      ["DELETE", `/api/admin/posts/${UNKNOWN_ID}`],
      ["GET", "/api/admin/users"],
      ["DELETE", "/api/admin/users"],
      ["DELETE", `/api/admin/users/${UNKNOWN_ID}`],
    ] as const;
    for (const [method, path] of routes) {
      expect((await h.call(method, path)).status).toBe(401);
      const body = method === "DELETE" ? {} : undefined;
      expect((await h.call(method, path, { token: s.token, body })).status).toBe(403);
    }
  });
});

import { describe, expect, test } from "vitest";
import { harness, UNKNOWN_ID } from "./helpers.js";

describe("profiles, strict mode", () => {
  test("list {profiles, count, next_cursor}; email only to its owner and admins", async () => {
    const h = harness();
    const a = await h.signUp();
    const b = await h.signUp();
    const res = await h.json<{ profiles: Record<string, unknown>[]; count: number; next_cursor: null }>(
      await h.call("GET", "/api/profiles", { token: a.token }),
    );
    expect(res.count).toBe(2);
    expect(res.next_cursor).toBeNull();
    const mine = res.profiles.find((p) => p.id === a.id);
    const theirs = res.profiles.find((p) => p.id === b.id);
    expect(mine?.email).toBe(a.email);
    expect(theirs).not.toHaveProperty("email");
    expect(Object.keys(theirs ?? {}).sort()).toEqual(["account_type", "display_name", "id", "is_admin"]);
  });

  test("sync: own id 200 {success, profile}; another id 403; anonymous 401", async () => {
    const h = harness();
    const a = await h.signUp();
    const res = await h.call("POST", "/api/profiles/sync", {
      token: a.token,
      body: { id: a.id, email: a.email, display_name: "New name" },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      success: true,
      profile: { id: a.id, display_name: "New name" },
    });
    const other = await h.call("POST", "/api/profiles/sync", {
      token: a.token,
      body: { id: UNKNOWN_ID, email: "x@example.com" },
    });
    expect(other.status).toBe(403);
    expect((await h.call("POST", "/api/profiles/sync", { body: { id: a.id, email: a.email } })).status).toBe(
      401,
    );
    const invalid = await h.call("POST", "/api/profiles/sync", { token: a.token, body: { email: a.email } });
    expect(await invalid.json()).toEqual({ error: "id: is required", code: "invalid_input" });
  });

  test("admin check and limit", async () => {
    const h = harness();
    const a = await h.signUp();
    const admin = await h.admin();
    expect(await (await h.call("GET", `/api/profiles/admin?user_id=${a.id}`)).json()).toEqual({
      is_admin: false,
    });
    expect(await (await h.call("GET", `/api/profiles/admin?user_id=${admin.id}`)).json()).toEqual({
      is_admin: true,
    });
    expect(await (await h.call("GET", `/api/profiles/admin?user_id=${UNKNOWN_ID}`)).json()).toEqual({
      is_admin: false,
    });
    expect((await h.call("GET", "/api/profiles/admin")).status).toBe(400);
    await h.listing(a);
    const limit = await h.call("GET", `/api/profiles/limit?user_id=${a.id}`);
    const expected = { canPost: true, active_listings_count: 1, maxSlots: 5, account_type: "personal" };
    expect(await limit.json()).toEqual(expected);
    expect((await h.call("GET", `/api/profiles/limit?user_id=${UNKNOWN_ID}`)).status).toBe(404);
    const post = await h.call("POST", "/api/profiles/limit", { token: a.token, body: { user_id: a.id } });
    expect(await post.json()).toEqual(expected);
    expect((await h.call("POST", "/api/profiles/limit", { body: { user_id: a.id } })).status).toBe(401);
    const b = await h.signUp();
    expect(
      (await h.call("POST", "/api/profiles/limit", { token: b.token, body: { user_id: a.id } })).status,
    ).toBe(403);
  });
});

describe("profiles, legacy mode", () => {
  test("sync and POST limit need no credentials", async () => {
    const h = harness("legacy");
    const res = await h.call("POST", "/api/profiles/sync", {
      body: { id: UNKNOWN_ID, email: "legacy@example.com", account_type: "business" },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ success: true, profile: { account_type: "business" } });
    const limit = await h.call("POST", "/api/profiles/limit", { body: { user_id: UNKNOWN_ID } });
    expect(await limit.json()).toMatchObject({ canPost: true, maxSlots: 50, account_type: "business" });
  });

  test("the capabilities document and OpenAPI reflect the mode", async () => {
    const h = harness("legacy");
    const caps = await h.json<{ security_mode: string; known_gaps: string[] }>(
      await h.call("GET", "/api/capabilities"),
    );
    expect(caps.security_mode).toBe("legacy");
    expect(caps.known_gaps.length).toBeGreaterThan(0);
    const doc = await h.json<{ paths: Record<string, Record<string, { security: unknown[] }>> }>(
      await h.call("GET", "/openapi.json"),
    );
    expect(doc.paths["/api/messages"]?.get?.security).toContainEqual({});
  });
});

import { describe, expect, test } from "vitest";
import { expectError, harness, UNKNOWN_ID } from "./helpers.js";

describe("/api/keys", () => {
  test("create: 200 {key} with the value once; empty body gives the default name", async () => {
    const h = harness();
    const s = await h.signUp();
    const res = await h.call("POST", "/api/keys", { token: s.token });
    expect(res.status).toBe(200);
    const { key } = await h.json<{ key: Record<string, unknown> }>(res);
    expect(Object.keys(key).sort()).toEqual([
      "created_at",
      "expires_at",
      "id",
      "is_active",
      "key",
      "last_used",
      "name",
      "prefix",
      "scopes",
      "user_id",
    ]);
    expect(key).toMatchObject({ name: "API Key", is_active: true, user_id: s.id, last_used: null });
    expect(key).toMatchObject({ scopes: null, expires_at: null, prefix: String(key.key).slice(0, 12) });
    expect(key.key).toMatch(/^psm_[0-9a-f]{64}$/);
    const named = await h.call("POST", "/api/keys", { token: s.token, body: { name: "agent" } });
    expect((await h.json<{ key: { name: string } }>(named)).key.name).toBe("agent");
    expect((await h.call("POST", "/api/keys", { token: s.token, body: { name: "" } })).status).toBe(400);
    expect((await h.call("POST", "/api/keys")).status).toBe(401);
  });

  test("list: {keys, count, next_cursor}, never the value", async () => {
    const h = harness();
    const s = await h.signUp();
    const key = await h.apiKey(s);
    const res = await h.call("GET", "/api/keys", { key });
    const body = await h.json<{ keys: Record<string, unknown>[]; count: number; next_cursor: string | null }>(
      res,
    );
    expect(body.count).toBe(1);
    expect(body.next_cursor).toBeNull();
    expect(body.keys[0]).not.toHaveProperty("key");
    expect(body.keys[0]?.last_used).toEqual(expect.any(String));
    expect(JSON.stringify(body)).not.toContain(key);
    expect((await h.call("GET", "/api/keys")).status).toBe(401);
  });

  test("delete: {success: true}; another user's or unknown key 404; malformed id 400", async () => {
    const h = harness();
    const s = await h.signUp();
    const other = await h.signUp();
    await h.apiKey(s);
    const list = await h.json<{ keys: { id: string }[] }>(
      await h.call("GET", "/api/keys", { token: s.token }),
    );
    const id = list.keys[0]?.id ?? "";
    expect((await h.call("DELETE", `/api/keys/${id}`, { token: other.token })).status).toBe(404);
    const res = await h.call("DELETE", `/api/keys/${id}`, { token: s.token });
    expect(await res.json()).toEqual({ success: true });
    const unknown = await h.call("DELETE", `/api/keys/${UNKNOWN_ID}`, { token: s.token });
    await expectError(unknown, 404, { error: "API key not found", code: "key_not_found" });
    expect((await h.call("DELETE", "/api/keys/abc", { token: s.token })).status).toBe(400);
  });
});

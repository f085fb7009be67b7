import { describe, expect, it } from "vitest";
import { arr, expectError, expectStatus, findById, ids, str } from "../../support/http.js";
import { accountsBeforeAll } from "../../support/scenario.js";
import type { World } from "../../support/world.js";

const UNKNOWN = "0190f5c2-0000-7000-8000-000000000004";

/** API keys: list, create (value once), deactivate, and what a deactivated key gets. */
export function keyScenario(world: () => World): void {
  describe("api keys", () => {
    const [owner, other] = accountsBeforeAll(world, "key-owner", "key-other");

    it("creates a key with a JWT or a key; the name defaults to API Key; the value is shown once", async () => {
      const { api } = world();
      const named = await api.post("/api/keys", { apiKey: owner.key, body: { name: "ci agent" } });
      expectStatus(named, 200);
      expect(named.body.key).toEqual({
        id: expect.any(String),
        user_id: owner.id,
        key: expect.stringMatching(/^psm_[0-9a-f]{64}$/),
        name: "ci agent",
        prefix: str(named.body.key?.key).slice(0, 12),
        scopes: null,
        expires_at: null,
        is_active: true,
        last_used: null,
        created_at: expect.any(String),
      });
      const unnamed = await api.post("/api/keys", { token: owner.token });
      expectStatus(unnamed, 200);
      expect(unnamed.body.key?.name).toBe("API Key");

      const listed = await api.get("/api/keys", { token: owner.token });
      expectStatus(listed, 200);
      expect(ids(listed.body.keys).sort()).toEqual(
        [owner.keyId, str(named.body.key?.id), str(unnamed.body.key?.id)].sort(),
      );
      for (const key of arr(listed.body.keys)) {
        expect(key).not.toHaveProperty("key");
        expect(key.user_id).toBe(owner.id);
      }
      const used = findById(arr(listed.body.keys), owner.keyId);
      expect(used?.last_used).toEqual(expect.any(String));
      expectStatus(await api.get("/api/keys", { apiKey: owner.key }), 200);
      expectError(await api.get("/api/keys"), 401, "unauthenticated");
      expectError(await api.post("/api/keys", { body: { name: "x" } }), 401, "unauthenticated");
    });

    it("deactivates own keys; another user's or an unknown key is 404; a deactivated key is 401", async () => {
      const { api } = world();
      const created = await api.post("/api/keys", { token: owner.token, body: { name: "short-lived" } });
      const id = str(created.body.key?.id);
      const secret = str(created.body.key?.key);
      expectStatus(await api.get("/api/auth/me", { apiKey: secret }), 200);

      expectError(await api.delete(`/api/keys/${id}`, { apiKey: other.key }), 404, "key_not_found");
      expectError(await api.delete(`/api/keys/${UNKNOWN}`, { apiKey: owner.key }), 404, "key_not_found");
      expectError(await api.delete("/api/keys/not-a-uuid", { apiKey: owner.key }), 400, "invalid_input");
      expectError(await api.delete(`/api/keys/${id}`), 401, "unauthenticated");

      const deleted = await api.delete(`/api/keys/${id}`, { apiKey: owner.key });
      expectStatus(deleted, 200);
      expect(deleted.body).toEqual({ success: true });
      const listed = await api.get("/api/keys", { token: owner.token });
      expect(findById(arr(listed.body.keys), id)?.is_active).toBe(false);
      expectError(await api.get("/api/auth/me", { apiKey: secret }), 401, "api_key_revoked");
      expectError(await api.get("/api/listings", { apiKey: secret }), 401, "api_key_revoked");
    });

    it("limits a key to its scopes (403 insufficient_scope elsewhere) and rotates it with a grace period", async () => {
      const { api } = world();
      const expires = new Date(Date.now() + 30 * 24 * 3600 * 1000).toISOString();
      const made = await api.post("/api/keys", {
        token: owner.token,
        body: { name: "inbox reader", scopes: ["messages:read", "account:write"], expires_at: expires },
      });
      expectStatus(made, 200);
      expect(made.body.key).toMatchObject({
        scopes: ["messages:read", "account:write"],
        expires_at: expires,
      });
      const reader = str(made.body.key?.key);
      expectStatus(await api.get("/api/messages", { apiKey: reader }), 200);
      expectStatus(await api.get("/api/listings", { apiKey: reader }), 200);
      const listing = { title: "Audit", description: "Two weeks", category: "cybersecurity" };
      expectError(
        await api.post("/api/listings", { apiKey: reader, body: listing }),
        403,
        "insufficient_scope",
      );
      expectError(
        await api.post("/api/keys", { apiKey: reader, body: { scopes: ["listings:write"] } }),
        403,
        "insufficient_scope",
      );
      expectError(
        await api.post("/api/keys", { token: owner.token, body: { expires_at: "2020-01-01T00:00:00Z" } }),
        400,
        "invalid_input",
      );

      const rotated = await api.post(`/api/keys/${str(made.body.key?.id)}/rotate`, {
        apiKey: reader,
        body: { grace_seconds: 3600 },
      });
      expectStatus(rotated, 201);
      expect(rotated.body.key).toMatchObject({
        name: "inbox reader",
        scopes: made.body.key?.scopes,
        expires_at: expires,
      });
      const next = str(rotated.body.key?.key);
      expect(next).not.toBe(reader);
      // Both work through the grace period; the old one then expires at most an hour from now.
      expectStatus(await api.get("/api/messages", { apiKey: reader }), 200);
      expectStatus(await api.get("/api/messages", { apiKey: next }), 200);
      const old = findById(
        arr((await api.get("/api/keys", { token: owner.token })).body.keys),
        str(made.body.key?.id),
      );
      expect(Date.parse(str(old?.expires_at)) - Date.now()).toBeLessThanOrEqual(3600 * 1000);
      expectError(
        await api.post(`/api/keys/${str(made.body.key?.id)}/rotate`, { apiKey: other.key }),
        404,
        "key_not_found",
      );
    });

    it("lists every key for an admin, who may deactivate anyone's", async () => {
      const { api, admin } = world();
      const all = await api.get("/api/keys", { token: admin.token });
      expectStatus(all, 200);
      expect(ids(all.body.keys)).toEqual(expect.arrayContaining([owner.keyId, other.keyId, admin.keyId]));
      const spare = await api.post("/api/keys", { apiKey: other.key, body: { name: "spare" } });
      const spareId = str(spare.body.key?.id);
      expectStatus(await api.delete(`/api/keys/${spareId}`, { token: admin.token }), 200);
      expectError(await api.get("/api/keys", { apiKey: str(spare.body.key?.key) }), 401, "api_key_revoked");
    });
  });
}

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
      expectError(await api.get("/api/auth/me", { apiKey: secret }), 401, "unauthenticated");
      expectError(await api.get("/api/listings", { apiKey: secret }), 401, "unauthenticated");
    });

    it("lists every key for an admin, who may deactivate anyone's", async () => {
      const { api, admin } = world();
      const all = await api.get("/api/keys", { token: admin.token });
      expectStatus(all, 200);
      expect(ids(all.body.keys)).toEqual(expect.arrayContaining([owner.keyId, other.keyId, admin.keyId]));
      const spare = await api.post("/api/keys", { apiKey: other.key, body: { name: "spare" } });
      const spareId = str(spare.body.key?.id);
      expectStatus(await api.delete(`/api/keys/${spareId}`, { token: admin.token }), 200);
      expectError(await api.get("/api/keys", { apiKey: str(spare.body.key?.key) }), 401, "unauthenticated");
    });
  });
}

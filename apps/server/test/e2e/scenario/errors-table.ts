import { describe, expect, it } from "vitest";
import type { Mode } from "../../support/backends.js";
import { ENDPOINTS, expectedAuth } from "../../support/contract.js";
import { expectError } from "../../support/http.js";
import { accountsBeforeAll } from "../../support/scenario.js";
import type { World } from "../../support/world.js";

const UNKNOWN = "0190f5c2-0000-7000-8000-000000000006";
const concrete = (endpoint: string) => endpoint.replace("{id}", UNKNOWN).split(" ") as [string, string];
// A well-formed body where one is read, so that only the credentials can be wrong.
const bodyFor = (method: string) =>
  method === "GET" ? {} : { body: { post_id: UNKNOWN, user_id: UNKNOWN } };

/**
 * Every row of interface 1.0.2's Errors table, one test per condition, each
 * answer `{error, code}` with the table's status.
 */
export function errorsTableScenario(mode: Mode, world: () => World): void {
  describe("errors table", () => {
    const [user] = accountsBeforeAll(world, "errors");
    // Anonymous in legacy mode, where these endpoints are public; signed in where strict mode requires it.
    const opened = (): { apiKey?: string } => (mode === "legacy" ? {} : { apiKey: user.key });

    it("400 listing create: missing required fields, named in the error", async () => {
      const reply = await world().api.post("/api/listings", {
        apiKey: user.key,
        body: { title: "Only a title" },
      });
      expectError(reply, 400, "invalid_input");
      expect(reply.body.error).toContain("description");
    });

    it("400 signup: missing fields, or the email already registered", async () => {
      const { api } = world();
      expectError(await api.post("/api/auth/signup", { body: {} }), 400, "invalid_input");
      expectError(
        await api.post("/api/auth/signup", { body: { email: user.email, password: "another-one" } }),
        400,
        "email_taken",
      );
    });

    it("400 update-password: invalid or expired token", async () => {
      const body = { token: "dGhpcy10b2tlbi13YXMtbmV2ZXItaXNzdWVkLWJ5LXVz", new_password: "long-enough" };
      expectError(await world().api.post("/api/auth/update-password", { body }), 400, "reset_token_invalid");
    });

    it("400 messages list: user_id missing (legacy) or malformed", async () => {
      const { api } = world();
      if (mode === "legacy") expectError(await api.get("/api/messages"), 400, "invalid_input");
      expectError(await api.get("/api/messages?user_id=not-a-uuid", opened()), 400, "invalid_input");
    });

    it("400 messages send: missing fields", async () => {
      expectError(await world().api.post("/api/messages", { ...opened(), body: {} }), 400, "invalid_input");
      const noContent = { listing_id: UNKNOWN, sender_id: user.id, receiver_id: UNKNOWN };
      expectError(
        await world().api.post("/api/messages", { ...opened(), body: noContent }),
        400,
        "invalid_input",
      );
    });

    it("400 profiles/sync: id or email missing", async () => {
      const { api } = world();
      expectError(await api.post("/api/profiles/sync", { ...opened(), body: { email: user.email } }), 400);
      expectError(await api.post("/api/profiles/sync", { ...opened(), body: { id: user.id } }), 400);
    });

    it("400 parse-pdf: no file, or an unsupported type", async () => {
      const { api } = world();
      const none = new FormData();
      none.append("title", "no file");
      expectError(await api.post("/api/parse-pdf", { apiKey: user.key, form: none }), 400, "invalid_input");
      const gif = new FormData();
      gif.append("file", new Blob([new TextEncoder().encode("GIF89a\u0001\u0000\u0001\u0000")]), "x.gif");
      expectError(
        await api.post("/api/parse-pdf", { apiKey: user.key, form: gif }),
        400,
        "unsupported_document",
      );
    });

    it("400 admin delete post by body: post_id missing", async () => {
      const reply = await world().api.delete("/api/admin/posts", { token: world().admin.token, body: {} });
      expectError(reply, 400, "invalid_input");
    });

    it("401 login: invalid credentials", async () => {
      const reply = await world().api.post("/api/auth/login", {
        body: { email: user.email, password: "not-it" },
      });
      expectError(reply, 401, "invalid_credentials");
    });

    it("401 every protected endpoint: credentials missing, or an invalid key, JWT or scheme", async () => {
      const { api } = world();
      const protectedEndpoints = ENDPOINTS.filter((endpoint) => expectedAuth(endpoint, mode) !== "public");
      expect(protectedEndpoints.length).toBeGreaterThan(mode === "strict" ? 17 : 13);
      const invalid = [
        {},
        { apiKey: `psm_${"ab".repeat(32)}` },
        { apiKey: "not-a-key" },
        { token: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl" },
        { headers: { authorization: "Basic dXNlcjpwYXNz" } },
      ];
      for (const endpoint of protectedEndpoints) {
        const [method, path] = concrete(endpoint);
        for (const credentials of invalid) {
          const reply = await api.send(method, path, { ...credentials, ...bodyFor(method) });
          expect([endpoint, credentials, reply.status]).toEqual([endpoint, credentials, 401]);
          expectError(reply, 401, "unauthenticated");
        }
      }
    });

    it("403 admin endpoints: the caller is not an admin", async () => {
      for (const endpoint of ENDPOINTS.filter((e) => expectedAuth(e, mode) === "admin")) {
        const [method, path] = concrete(endpoint);
        const reply = await world().api.send(method, path, { token: user.token, ...bodyFor(method) });
        expect([endpoint, reply.status]).toEqual([endpoint, 403]);
        expectError(reply, 403, "admin_required");
      }
    });

    it("403 admin delete user: the target is an admin", async () => {
      const { api, admin } = world();
      const reply = await api.delete("/api/admin/users", { token: admin.token, body: { user_id: admin.id } });
      expectError(reply, 403, "cannot_delete_admin");
    });

    it("404 listing get: Listing not found", async () => {
      const reply = await world().api.get(`/api/listings/${UNKNOWN}`);
      expectError(reply, 404, "listing_not_found");
      expect(reply.body.error).toBe("Listing not found");
    });

    it("404 key delete: key not found", async () => {
      expectError(
        await world().api.delete(`/api/keys/${UNKNOWN}`, { apiKey: user.key }),
        404,
        "key_not_found",
      );
    });
  });
}

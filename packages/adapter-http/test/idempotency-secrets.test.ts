import { idempotencyId } from "@psm/core";
import { apiOperations, type Operation, REDACTED_SECRET, takesIdempotencyKey } from "@psm/operations";
import type * as v from "valibot";
import { describe, expect, test } from "vitest";
import { resolveConfig } from "../src/config.js";
import { type Harness, harness } from "./helpers.js";

const OPERATIONS = apiOperations(resolveConfig({ publicUrl: "http://localhost", corsOrigins: "*" }));

/** A field name that says it holds a credential or a secret. */
const SECRET_NAME = /secret|token|password|^key$/i;

/** The dotted paths of the string fields of an answer schema whose name says they hold a secret. */
function secretLikePaths(schema: v.GenericSchema, at = ""): string[] {
  const node = schema as unknown as {
    type: string;
    entries?: Record<string, v.GenericSchema>;
    wrapped?: v.GenericSchema;
    item?: v.GenericSchema;
    options?: v.GenericSchema[];
  };
  if (node.wrapped) return secretLikePaths(node.wrapped, at);
  if (node.type === "array" && node.item) return secretLikePaths(node.item, `${at}[]`);
  if (node.options) return [...new Set(node.options.flatMap((option) => secretLikePaths(option, at)))];
  if (node.type === "object" && node.entries) {
    return Object.entries(node.entries).flatMap(([name, entry]) => {
      const path = at === "" ? name : `${at}.${name}`;
      const inner = secretLikePaths(entry, path);
      const leaf = (entry as unknown as { type: string }).type === "string" && SECRET_NAME.test(name);
      return leaf ? [path, ...inner] : inner;
    });
  }
  return [];
}

/** The value at a dotted path of a parsed answer. */
function valueAt(body: unknown, path: string): unknown {
  return path.split(".").reduce<unknown>((node, name) => (node as Record<string, unknown>)?.[name], body);
}

/** How to call each operation whose answer holds a secret: its path and body, for a fresh user. */
const CALLS: Record<string, (h: Harness, token: string) => Promise<{ path: string; body?: object }>> = {
  create_api_key: async () => ({ path: "/api/keys", body: { name: "replayed" } }),
  rotate_api_key: async (h, token) => {
    const res = await h.call("POST", "/api/keys", { token, body: { name: "to rotate" } });
    const { key } = await h.json<{ key: { id: string } }>(res);
    return { path: `/api/keys/${key.id}/rotate`, body: { grace_seconds: 60 } };
  },
  create_webhook: async () => ({
    path: "/api/webhooks",
    body: { url: "https://hooks.example.com/in", types: ["listing.created"] },
  }),
  rotate_webhook_secret: async (h, token) => {
    const res = await h.call("POST", "/api/webhooks", {
      token,
      body: { url: "https://hooks.example.com/in", types: ["listing.created"] },
    });
    const { webhook } = await h.json<{ webhook: { id: string } }>(res);
    return { path: `/api/webhooks/${webhook.id}/rotate-secret` };
  },
};

const keyed = OPERATIONS.filter(takesIdempotencyKey);
const withSecrets = keyed.filter((op) => (op.secrets ?? []).length > 0);

describe("no stored idempotent answer holds a secret", () => {
  test("every keyed operation whose answer has a secret-named field declares it, and only those", () => {
    const declared = Object.fromEntries(keyed.map((op) => [op.name, [...(op.secrets ?? [])].sort()]));
    const found = Object.fromEntries(keyed.map((op) => [op.name, secretLikePaths(op.ok.schema).sort()]));
    expect(declared).toEqual(found);
    expect(withSecrets.map((op) => op.name).sort()).toEqual(Object.keys(CALLS).sort());
  });

  test.each(withSecrets.map((op) => [op.name, op] as [string, Operation]))(
    "%s: the first answer shows the secret; the stored one and every replay carry the marker",
    async (name, op) => {
      const h = harness();
      const user = await h.signUp();
      const call = await CALLS[name]!(h, user.token);
      const headers = { "Idempotency-Key": `secret-${name}` };
      const send = () => h.call(op.method, call.path, { token: user.token, body: call.body, headers });
      const first = await send();
      expect(first.status).toBe(op.ok.status);
      const shown = await h.json(first);
      const secrets = (op.secrets ?? []).map((path) => valueAt(shown, path));
      for (const secret of secrets) expect(secret).toMatch(/^(psm_|whsec_)\S{20,}$/);

      const stored = await h.deps.repos.idempotency.find(
        idempotencyId(`user:${user.id}`, [op.name], headers["Idempotency-Key"]),
        h.deps.clock.now(),
      );
      expect(stored?.result).toEqual(expect.any(String));
      for (const secret of secrets) expect(stored?.result).not.toContain(String(secret).slice(4));

      const again = await send();
      expect(again.status).toBe(op.ok.status);
      expect(again.headers.get("Idempotent-Replayed")).toBe("true");
      const replayed = await h.json(again);
      for (const path of op.secrets ?? []) expect(valueAt(replayed, path)).toBe(REDACTED_SECRET);
      // Everything else is the first answer's.
      const scrub = (body: unknown) =>
        JSON.parse(
          JSON.stringify(body, (k, val) => (SECRET_NAME.test(k) && typeof val === "string" ? "" : val)),
        );
      expect(scrub(replayed)).toEqual(scrub(shown));
    },
  );

  test("a key deactivated after its keyed creation is not handed out by a replay", async () => {
    const h = harness();
    const user = await h.signUp();
    const headers = { "Idempotency-Key": "create-then-revoke" };
    const create = () => h.call("POST", "/api/keys", { token: user.token, body: { name: "k" }, headers });
    const { key } = await h.json<{ key: { id: string; key: string } }>(await create());
    expect((await h.call("DELETE", `/api/keys/${key.id}`, { token: user.token })).status).toBe(200);
    const replay = await h.json<{ key: { id: string; key: string } }>(await create());
    expect(replay.key).toMatchObject({ id: key.id, key: REDACTED_SECRET });
  });
});

/**
 * Every operation's scope, enforced on each surface that has it, generated from the registry: a
 * key limited to every scope but the operation's is refused with 403 `insufficient_scope` (the
 * route) or the same code (the tool), and never sees the tool; a key holding just that scope is
 * never refused for its scopes. An operation that names no scope is never refused for them.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { grantableScopes, type Scope } from "@psm/core";
import { apiOperations, type Operation, operationsConfig } from "@psm/operations";
import { beforeAll, describe, expect, it } from "vitest";
import { type Harness, harness } from "./support/harness.js";

const OPERATIONS = apiOperations(operationsConfig());
const UNKNOWN_ID = "01900000-0000-7000-8000-0000000000ee";
// A scope no operation needs yet (saved searches come next): a key holding only it is limited, yet allowed nothing scoped.
const BYSTANDER: Scope = "saved_searches:manage";

let h: Harness;
beforeAll(async () => {
  h = await harness();
});

/** A key of a fresh member (an admin for admin operations) limited to `scopes`. */
async function keyWith(op: Operation, scopes: Scope[]): Promise<string> {
  const owner = op.scope === "admin" ? await h.admin() : await h.member();
  const actor = await h.actorOf({ bearer: owner.token });
  return (await h.marketplace.apiKeys.create(actor, { scopes })).secret;
}

/** The route's answer code to a call with `key` and an empty body. */
async function routeCode(op: Operation, key: string): Promise<string | undefined> {
  const path = op.path.replace(/\{[^}]+\}/g, UNKNOWN_ID);
  const body = op.method === "GET" ? undefined : "{}";
  const res = await h.app.request(path, {
    method: op.method,
    headers: { "X-API-Key": key, ...(body ? { "Content-Type": "application/json" } : {}) },
    ...(body ? { body } : {}),
  });
  return res.status === 403 ? ((await res.json()) as { code?: string }).code : undefined;
}

async function toolOutcome(op: Operation, key: string): Promise<{ listed: boolean; code?: string }> {
  const client: Client = await h.overHttp({ "X-API-Key": key });
  try {
    const { tools } = await client.listTools();
    const args = Object.fromEntries(Object.values(op.input.path ?? {}).map((param) => [param, UNKNOWN_ID]));
    const result = (await client.callTool({ name: op.name, arguments: args })) as {
      isError?: boolean;
      structuredContent?: { code?: string };
    };
    const code = result.isError ? result.structuredContent?.code : undefined;
    return { listed: tools.some((tool) => tool.name === op.name), ...(code ? { code } : {}) };
  } finally {
    await client.close();
  }
}

describe("every registry operation's scope, on the API and over MCP", () => {
  it("covers every operation of the registry, and every scoped one has a scope a key can hold", () => {
    expect(OPERATIONS.length).toBeGreaterThan(30);
    for (const op of OPERATIONS) {
      if (op.scope !== undefined) expect(grantableScopes(true)).toContain(op.scope);
    }
  });

  for (const op of OPERATIONS) {
    const scope = op.scope;
    if (scope === undefined) {
      it(`${op.name} needs no scope: a key limited to ${BYSTANDER} is not refused for its scopes`, async () => {
        const key = await keyWith(op, [BYSTANDER]);
        expect(await routeCode(op, key)).not.toBe("insufficient_scope");
        if (op.tool !== undefined) expect((await toolOutcome(op, key)).code).not.toBe("insufficient_scope");
      });
      continue;
    }
    it(`${op.name} needs ${scope}: refused without it, on each surface; allowed with it alone`, async () => {
      // Everything a member may grant but this scope (admin is an admin's to grant, and needed only by admin operations).
      const without = await keyWith(
        op,
        grantableScopes(false).filter((s) => s !== scope),
      );
      expect(await routeCode(op, without), `${op.method} ${op.path}`).toBe("insufficient_scope");
      const only = await keyWith(op, [scope]);
      expect(await routeCode(op, only), `${op.method} ${op.path}`).not.toBe("insufficient_scope");
      if (op.tool === undefined) return;
      const hidden = await toolOutcome(op, without);
      expect(hidden).toEqual({ listed: false, code: "insufficient_scope" });
      expect((await toolOutcome(op, only)).code).not.toBe("insufficient_scope");
    });
  }
});

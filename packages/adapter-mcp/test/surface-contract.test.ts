/**
 * One surface contract (issue 26 §6): every registry operation reachable as a REST route and as
 * an MCP tool answers the same hostile input the same way on both: no 5xx on either, and the
 * same outcome (both succeed, or both fail with the same code). Generated inputs: huge strings,
 * deep nesting, NUL and lone surrogates, wrong types, unknown fields. Two members take the same
 * calls in the same order, one per surface, so their slots and their objects stay alike; path
 * parameters name nothing (a fixed unknown id), so no call of one surface can change what the
 * other finds. Reads take their fields as query strings, which carry only text: their arguments
 * are compared only for never answering 5xx.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { harness, type Member } from "./support/harness.js";

const SEED = 20_261_127;
const RUNS = 25;
const UNKNOWN_ID = "0190a3b4-5c6d-7e8f-9012-3456789abcde";

/** Nested `depth` levels deep, as arrays or objects. */
const nested = (depth: number, asObject: boolean): unknown => {
  let value: unknown = "x";
  for (let i = 0; i < depth; i++) value = asObject ? { a: value } : [value];
  return value;
};

const hostileString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom("", " ", "\u0000", "a\u0000b", "\ud800", "x\udfff", "%00", "<script>", "../../etc"),
  fc.integer({ min: 5_000, max: 200_000 }).map((n) => "a".repeat(n)),
);
const hostileValue = fc.oneof(
  hostileString,
  fc
    .integer({ min: 40, max: 3_000 })
    .chain((depth) => fc.boolean().map((asObject) => nested(depth, asObject))),
  fc.oneof(fc.integer(), fc.double(), fc.boolean(), fc.constant(null)),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 5 }),
);

/**
 * Arguments for a tool: each of its fields, hostile or not, and one it does not know where its
 * route takes a body (a route that takes none, as DELETE /api/listings/{id}, reads no body to
 * put it in).
 */
function argumentsFor(properties: readonly string[], takesBody: boolean) {
  const names = takesBody ? [...properties, "unknown_field"] : properties;
  return fc.record(Object.fromEntries(names.map((name) => [name, hostileValue])), { requiredKeys: [] });
}

interface Outcome {
  status: "ok" | "error";
  code?: string;
}

describe("one surface contract: REST and MCP answer hostile input alike", async () => {
  const h = await harness("strict");
  const [overMcp, overRest] = [await h.member("mcp"), await h.member("rest")];
  const tools = h.catalog.tools.filter(
    (tool) => tool.http !== null && tool.name !== "draft_listing_from_document",
  );

  const callMcp = async (member: Member, name: string, args: Record<string, unknown>): Promise<Outcome> => {
    const res = await h.post(
      "/mcp",
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } },
      { "X-API-Key": member.key },
    );
    expect(res.status, `${name} over MCP`).toBeLessThan(500);
    const body = (await res.json()) as {
      result?: { isError?: boolean; structuredContent?: { code?: string } };
      error?: { code: number; message: string } | string;
      code?: string;
    };
    // Refused before the protocol (the host's {error, code}), or by it (a JSON-RPC error).
    if (typeof body.error === "string") return { status: "error", code: body.code ?? "" };
    if (body.error) return { status: "error", code: `jsonrpc ${body.error.code}` };
    expect(body.result?.structuredContent?.code, `${name} over MCP: an internal error`).not.toBe(
      "internal_error",
    );
    return body.result?.isError
      ? { status: "error", code: body.result.structuredContent?.code ?? "" }
      : { status: "ok" };
  };

  const callRest = async (
    member: Member,
    tool: (typeof tools)[number],
    params: readonly string[],
    args: Record<string, unknown>,
  ): Promise<Outcome> => {
    const http = tool.http ?? { method: "GET", path: "/" };
    const path = http.path.replace(/\{(\w+)\}/g, UNKNOWN_ID);
    const fields = Object.fromEntries(Object.entries(args).filter(([name]) => !params.includes(name)));
    const read = http.method === "GET";
    const query = read
      ? `?${new URLSearchParams(Object.entries(fields).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]))}`
      : "";
    const res = await h.app.request(`${path}${query}`, {
      method: http.method,
      headers: { "X-API-Key": member.key, ...(read ? {} : { "Content-Type": "application/json" }) },
      ...(read ? {} : { body: JSON.stringify(fields) }),
    });
    expect(res.status, `${http.method} ${http.path}`).toBeLessThan(500);
    if (res.status < 400) return { status: "ok" };
    return { status: "error", code: ((await res.json()) as { code: string }).code };
  };

  for (const tool of tools) {
    it(`${tool.name}: the same answer on both surfaces`, { timeout: 180_000 }, async () => {
      const params = [...(tool.http?.path ?? "").matchAll(/\{(\w+)\}/g)].map(([, name]) => name ?? "");
      const fields = Object.keys(tool.inputSchema.properties ?? {}).filter(
        (name) => !params.includes(name) && name !== "idempotency_key",
      );
      await fc.assert(
        fc.asyncProperty(argumentsFor(fields, fields.length > 0), async (generated) => {
          const args: Record<string, unknown> = { ...generated };
          for (const param of params) args[param] = UNKNOWN_ID;
          const mcp = await callMcp(overMcp, tool.name, args);
          const rest = await callRest(overRest, tool, params, args);
          // Query strings carry text only: a read's typed arguments cannot travel alike.
          if (tool.http?.method !== "GET")
            expect(mcp, `${tool.name}: MCP ${JSON.stringify(mcp)} REST ${JSON.stringify(rest)}`).toEqual(
              rest,
            );
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
    });
  }
});

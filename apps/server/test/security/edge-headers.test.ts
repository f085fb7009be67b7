/**
 * The edge's headers and access log on the composed server, as `pnpm start` serves them through
 * @hono/node-server, where the in-process tests (`app.request()`) never go: the security headers
 * and X-Request-Id reach every kind of answer (JSON, pages, errors, /docs) exactly once, an
 * answer's own policy winning; each request's access line comes out while the server runs, and
 * none is lost when it stops.
 *
 * SQLite only: nothing here depends on storage.
 */
import { beforeAll, describe, expect, test } from "vitest";
import { useHarness } from "../support/harness.js";
import type { ServerProcess } from "../support/server-process.js";
import { waitFor } from "../support/wait.js";

const h = useHarness("file");
let server: ServerProcess;

beforeAll(async () => {
  server = await h.server({ dataDir: await h.dataDir() });
}, 60_000);

const API_POLICY = "default-src 'none'; frame-ancestors 'none'";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function get(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.url}${path}`, { headers });
  await res.arrayBuffer();
  return res;
}

/** The access lines the server has written so far, parsed (not the last, which may be arriving). */
function accessLines(): { reqId: string; path: string; status: number }[] {
  return server
    .output()
    .split("\n")
    .slice(0, -1)
    .filter((line) => line.includes('"msg":"request"'))
    .map((line) => JSON.parse(line));
}

describe("security headers on every kind of answer", () => {
  test("a JSON answer carries the API's set once, and echoes a valid request id", async () => {
    const res = await get("/api/listings", { "X-Request-Id": "trace-edge.1" });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toBe("trace-edge.1");
    expect(res.headers.get("content-security-policy")).toBe(API_POLICY);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("strict-transport-security")).toBe("max-age=15552000; includeSubDomains");
    // The pages' document isolation headers are not the API's.
    expect(res.headers.get("cross-origin-opener-policy")).toBeNull();
    expect(res.headers.get("etag")).toMatch(/^"/);
  });

  test("errors carry them too: a refused credential and an unknown path", async () => {
    for (const [path, headers, status] of [
      ["/api/keys", { "X-API-Key": "psm_not-a-key" }, 401],
      ["/api/no-such-thing", {}, 404],
    ] as const) {
      const res = await get(path, headers);
      expect(res.status, path).toBe(status);
      expect(res.headers.get("content-type"), path).toContain("application/json");
      expect(res.headers.get("content-security-policy"), path).toBe(API_POLICY);
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(res.headers.get("x-request-id"), path).toMatch(UUID);
    }
  });

  test("a page's own stricter policy wins over the default, and the pages' set is all there", async () => {
    const res = await get("/");
    expect(res.status).toBe(200);
    const policy = res.headers.get("content-security-policy") ?? "";
    // One policy, the page's: a second one would be joined to it with a comma.
    expect(policy).toMatch(/^default-src 'none'; script-src 'self'/);
    expect(policy).not.toContain(",");
    expect(res.headers.get("cross-origin-opener-policy")).toBe("same-origin");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("x-request-id")).toMatch(UUID);
  });

  test("/docs keeps its nonce policy, once", async () => {
    const res = await get("/docs");
    expect(res.status).toBe(200);
    const policy = res.headers.get("content-security-policy") ?? "";
    expect(policy).toMatch(/script-src 'self' 'nonce-[^']+'/);
    expect(policy).not.toContain(",");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });

  test("an invalid request id is replaced, never echoed", async () => {
    const res = await get("/api/listings", { "X-Request-Id": "bad id=1" });
    expect(res.headers.get("x-request-id")).toMatch(UUID);
  });
});

describe("the access log", () => {
  test("a line comes out while the server runs, however quiet it is, with the path and never the query", async () => {
    await get("/api/listings?q=secret-words-in-query", { "X-Request-Id": "trace-edge.quiet" });
    const line = await waitFor("the access line of a lone request", () =>
      accessLines().find((entry) => entry.reqId === "trace-edge.quiet"),
    );
    expect(line).toMatchObject({ path: "/api/listings", status: 200 });
    expect(server.output()).not.toContain("secret-words-in-query");
  });

  test("every request's line is out once the server has stopped", async () => {
    const ids = Array.from({ length: 40 }, (_, i) => `trace-edge.burst-${i}`);
    for (const id of ids) await get("/healthz", { "X-Request-Id": id });
    expect(await server.stop()).toBe(0);
    const logged = new Set(accessLines().map((entry) => entry.reqId));
    expect(ids.filter((id) => !logged.has(id))).toEqual([]);
  });
});

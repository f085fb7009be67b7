/**
 * OWASP API9:2023 Improper Inventory Management. What the app serves and what
 * /openapi.json documents are the same set (both ways); core's capability
 * table is served as documented; common debug and leftover paths are 404.
 */
import { capabilityTable } from "@psm/adapter-http/testing";
import { describe, expect, test } from "vitest";
import { target } from "./support/target.js";

const METHODS = ["get", "post", "put", "patch", "delete"];

/** "METHOD /path/{param}" for every route registered on the app (middleware excluded). */
function served(routes: readonly { method: string; path: string }[]): Set<string> {
  return new Set(
    routes
      .filter((route) => route.method !== "ALL")
      .map((route) => `${route.method} ${route.path.replace(/:([A-Za-z_]+)/g, "{$1}")}`),
  );
}

/** The same for every operation in an OpenAPI document. */
function documented(doc: { paths: Record<string, Record<string, unknown>> }): Set<string> {
  return new Set(
    Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((method) => METHODS.includes(method))
        .map((method) => `${method.toUpperCase()} ${path}`),
    ),
  );
}

describe("inventory", () => {
  test("every served route is documented, and every documented route is served", async () => {
    for (const mode of ["strict", "legacy"] as const) {
      const t = target({ mode });
      const doc = await t.json<{ paths: Record<string, Record<string, unknown>> }>(
        await t.request("GET", "/openapi.json"),
      );
      const routes = served(t.app.routes);
      const paths = documented(doc);
      expect(routes.size).toBeGreaterThan(30);
      expect(
        [...routes].filter((r) => !paths.has(r)),
        `${mode}: served, undocumented`,
      ).toEqual([]);
      expect(
        [...paths].filter((p) => !routes.has(p)),
        `${mode}: documented, not served`,
      ).toEqual([]);
    }
  });

  test("each capability is served and documented under its name", async () => {
    const t = target();
    const doc = await t.json<{ paths: Record<string, Record<string, { operationId?: string }>> }>(
      await t.request("GET", "/openapi.json"),
    );
    for (const cap of capabilityTable("strict")) {
      const operation = doc.paths[cap.path]?.[cap.method.toLowerCase()];
      expect(operation?.operationId, `${cap.method} ${cap.path}`).toBe(cap.name);
    }
  });

  test("the checker notices an undocumented route", () => {
    const routes = served([
      { method: "GET", path: "/api/listings/:id" },
      { method: "GET", path: "/debug/vars" },
      { method: "ALL", path: "*" },
    ]);
    const paths = documented({ paths: { "/api/listings/{id}": { get: {}, parameters: [] } } });
    expect([...routes].filter((r) => !paths.has(r))).toEqual(["GET /debug/vars"]);
  });
});

describe("no leftover debug or internal routes", () => {
  const probes = [
    "/debug",
    "/debug/vars",
    "/debug/pprof",
    "/admin",
    "/api/admin",
    "/.env",
    "/.git/config",
    "/api/debug",
    "/api/internal",
    "/api/v1/listings",
    "/api/test",
    "/metrics",
    "/status",
    "/server-status",
    "/actuator/health",
    "/graphql",
    "/swagger.json",
    "/api/openapi.json",
    "/phpinfo.php",
    "/api/users",
    "/api/dump",
    "/api/auth/debug",
  ];

  test("common probes answer 404 {error, code} for GET and POST", async () => {
    const t = target();
    for (const path of probes) {
      for (const method of ["GET", "POST"]) {
        const res = await t.request(method, path);
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(await res.json(), `${method} ${path}`).toEqual({ error: "Not found", code: "not_found" });
      }
    }
  });
});

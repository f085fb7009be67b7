import { API_VERSION, capabilityTable, ERROR_CODES, type SecurityMode } from "@psm/core";
import { findTargetHandler, isMiddleware } from "hono/utils/handler";
import { describe, expect, test } from "vitest";
import { harness } from "./helpers.js";

interface Operation {
  operationId: string;
  security: Record<string, string[]>[];
  parameters?: { in: string; name: string }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
interface Doc {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, { properties?: Record<string, { enum?: string[] }> }>;
    securitySchemes: object;
  };
}

async function load(mode: SecurityMode = "strict") {
  const h = harness(mode);
  const res = await h.call("GET", "/openapi.json");
  expect(res.status).toBe(200);
  return { h, doc: (await res.json()) as Doc };
}

const toOpenApi = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, "{$1}");

describe("/openapi.json", () => {
  test("OpenAPI 3.1, version 1.2.0, both security schemes", async () => {
    const { doc } = await load();
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe(API_VERSION);
    expect(API_VERSION).toBe("1.2.0");
    expect(doc.components.securitySchemes).toEqual({
      ApiKeyAuth: expect.objectContaining({ type: "apiKey", in: "header", name: "X-API-Key" }),
      BearerAuth: expect.objectContaining({ type: "http", scheme: "bearer", bearerFormat: "JWT" }),
    });
  });

  test("every route the app serves is documented, and nothing else", async () => {
    const { h, doc } = await load();
    const served = new Set(
      h.app.routes
        .filter((r) => r.method !== "ALL" && !isMiddleware(findTargetHandler(r.handler)))
        .map((r) => `${r.method} ${toOpenApi(r.path)}`),
    );
    const documented = new Set(
      Object.entries(doc.paths).flatMap(([path, ops]) =>
        Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
      ),
    );
    expect([...documented].sort()).toEqual([...served].sort());
    for (const page of [
      "GET /openapi.json",
      "GET /docs",
      "GET /healthz",
      "GET /readyz",
      "GET /reset-password",
      "POST /reset-password",
    ]) {
      expect(documented).toContain(page);
    }
  });

  for (const mode of ["strict", "legacy"] as const) {
    test(`${mode}: each capability is an operation with the security of its auth`, async () => {
      const { doc } = await load(mode);
      for (const cap of capabilityTable(mode)) {
        const op = doc.paths[cap.path]?.[cap.method.toLowerCase()];
        expect(op?.operationId, `${cap.method} ${cap.path}`).toBe(cap.name);
        const schemes = op?.security.map((s) => Object.keys(s).join()) ?? [];
        const expected = {
          public: ["", "ApiKeyAuth", "BearerAuth"],
          "key-or-jwt": ["ApiKeyAuth", "BearerAuth"],
          jwt: ["BearerAuth"],
          admin: ["BearerAuth"],
        }[cap.auth];
        expect(schemes, cap.name).toEqual(expected);
      }
    });
  }

  test("every response has a schema; errors use Error with the ErrorCode enum", async () => {
    const { doc } = await load();
    expect(doc.components.schemas.Error?.properties?.code?.enum).toEqual(ERROR_CODES);
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        expect(Object.keys(op.responses), `${method} ${path}`).toContain("500");
        for (const [status, response] of Object.entries(op.responses)) {
          const media = Object.values(response.content ?? {});
          expect(media.length, `${method} ${path} ${status}`).toBeGreaterThan(0);
          for (const m of media) expect(m.schema).toBeDefined();
          if (Number(status) >= 400 && response.content?.["application/json"]) {
            expect(response.content["application/json"].schema).toEqual({
              $ref: "#/components/schemas/Error",
            });
          }
        }
      }
    }
  });

  test("request bodies and query parameters come from core's schemas", async () => {
    const { doc } = await load();
    const create = doc.paths["/api/listings"]?.post;
    expect(create?.requestBody?.content["application/json"]?.schema).toEqual({
      $ref: "#/components/schemas/NewListing",
    });
    const search = doc.paths["/api/listings"]?.get;
    expect(search?.parameters?.map((p) => p.name).sort()).toEqual(
      ["category", "cursor", "limit", "search", "status", "user_id"].sort(),
    );
    expect(doc.paths["/api/listings/{id}"]?.get?.parameters).toContainEqual(
      expect.objectContaining({ in: "path", name: "id" }),
    );
    expect(doc.paths["/api/parse-pdf"]?.post?.requestBody?.content).toHaveProperty("multipart/form-data");
    expect(doc.paths["/reset-password"]?.post?.requestBody?.content).toHaveProperty(
      "application/x-www-form-urlencoded",
    );
    const newListing = doc.components.schemas.NewListing as { required: string[] };
    expect(newListing.required.sort()).toEqual(["category", "description", "title"]);
  });

  test("every $ref resolves", async () => {
    const { doc } = await load();
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
    for (const ref of new Set(refs)) {
      const name = ref.replace(/^"\$ref":"#\/components\/schemas\//, "").replace(/"$/, "");
      expect(doc.components.schemas, ref).toHaveProperty(name);
    }
  });
});

describe("/docs", () => {
  test("the reference page loads its script from this server and names no other host", async () => {
    const h = harness();
    const res = await h.call("GET", "/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    const html = await res.text();
    expect(html).not.toMatch(/https?:\/\//i);
    expect(html).not.toMatch(/src="\/\//);
    expect(html).toContain('src="/docs/scalar.js"');
    expect(html).toContain('"url": "/openapi.json"');
    const nonce = /nonce="([^"]+)"/.exec(html)?.[1];
    expect(res.headers.get("content-security-policy")).toContain(`'nonce-${nonce}'`);
  });

  test("the Scalar bundle is served locally", async () => {
    const h = harness();
    const res = await h.call("GET", "/docs/scalar.js");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("javascript");
    const text = await res.text();
    expect(text.length).toBeGreaterThan(100_000);
    expect(text).toContain("createApiReference");
  });
});

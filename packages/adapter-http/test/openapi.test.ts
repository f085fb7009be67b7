import { API_VERSION } from "@psm/adapter-http";
import { capabilityTable } from "@psm/adapter-http/testing";
import { ERROR_CODES, type SecurityMode } from "@psm/core";
import { findTargetHandler, isMiddleware } from "hono/utils/handler";
import { describe, expect, test } from "vitest";
import { harness } from "./helpers.js";

/** The parts of a JSON Schema the checks below read. */
interface Schema {
  $ref?: string;
  title?: string;
  description?: string;
  enum?: string[];
  required?: string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  additionalProperties?: Schema | boolean;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
}
interface Media {
  schema?: Schema;
  example?: unknown;
  examples?: object;
}
interface Operation {
  operationId: string;
  security: Record<string, string[]>[];
  parameters?: { in: string; name: string; description?: string; schema?: object }[];
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { content?: Record<string, Media> }>;
}
interface Doc {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, Schema>;
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

/** Every operation of the document with a name for messages: `POST /api/listings`. */
const operationsOf = (doc: Doc) =>
  Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ where: `${method.toUpperCase()} ${path}`, op })),
  );

/**
 * Where the document leaves a property or a parameter unexplained: each
 * parameter, and each property of every schema (components, request bodies,
 * responses), nested objects, array items, maps and composition members
 * included. A `$ref` is followed into its component, which is walked once.
 */
function undescribed(doc: Doc): string[] {
  const missing: string[] = [];
  const walked = new Set<string>();
  const walk = (schema: Schema | boolean | undefined, at: string): void => {
    if (typeof schema !== "object") return;
    if (schema.$ref !== undefined) {
      const name = schema.$ref.replace("#/components/schemas/", "");
      if (walked.has(name)) return;
      walked.add(name);
      walk(doc.components.schemas[name], name);
      return;
    }
    for (const [key, property] of Object.entries(schema.properties ?? {})) {
      if (!property.description?.trim()) missing.push(`${at}.${key}`);
      walk(property, `${at}.${key}`);
    }
    walk(schema.items, `${at}[]`);
    walk(schema.additionalProperties, `${at}{}`);
    for (const member of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) {
      walk(member, at);
    }
  };
  for (const { where, op } of operationsOf(doc)) {
    for (const p of op.parameters ?? []) {
      if (!p.description?.trim()) missing.push(`${where}: ${p.in} parameter ${p.name}`);
    }
    for (const media of Object.values(op.requestBody?.content ?? {})) walk(media.schema, `${where} body`);
    for (const [status, response] of Object.entries(op.responses)) {
      for (const media of Object.values(response.content ?? {})) walk(media.schema, `${where} ${status}`);
    }
  }
  for (const name of Object.keys(doc.components.schemas))
    walk({ $ref: `#/components/schemas/${name}` }, name);
  return missing;
}

describe("/openapi.json", () => {
  test("OpenAPI 3.1, version 1.3.0, both security schemes", async () => {
    const { doc } = await load();
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe(API_VERSION);
    expect(API_VERSION).toBe("1.3.0");
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
    // The pages behind the mailed links are the web surface's, documented where it is mounted.
    for (const page of ["GET /openapi.json", "GET /docs", "GET /healthz", "GET /readyz"]) {
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

  for (const mode of ["strict", "legacy"] as const) {
    test(`${mode}: every property and parameter has a description`, async () => {
      const { doc } = await load(mode);
      expect(undescribed(doc)).toEqual([]);
    });

    test(`${mode}: every request body has an example`, async () => {
      const { doc } = await load(mode);
      const without = operationsOf(doc).flatMap(({ where, op }) =>
        Object.entries(op.requestBody?.content ?? {})
          // An upload's example would be a file: its schema says what to send.
          .filter(([type, media]) => type !== "multipart/form-data" && media.example === undefined)
          .filter(([, media]) => media.examples === undefined)
          .map(([type]) => `${where} ${type}`),
      );
      expect(without).toEqual([]);
    });
  }

  test("the walk finds an undescribed property through a $ref, an array and a nullable", () => {
    const doc: Doc = {
      openapi: "3.1.0",
      info: { version: "0" },
      paths: {
        "/x": {
          get: {
            operationId: "x",
            security: [],
            parameters: [{ in: "query", name: "q" }],
            responses: {
              "200": {
                content: {
                  "application/json": {
                    schema: {
                      properties: {
                        a: { description: "A.", anyOf: [{ $ref: "#/components/schemas/A" }, {}] },
                        b: { description: "B.", items: { properties: { c: {} } } },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
      components: {
        schemas: { A: { properties: { d: { description: "D." }, e: { description: " " } } } },
        securitySchemes: {},
      },
    };
    expect(undescribed(doc)).toEqual(["GET /x: query parameter q", "A.e", "GET /x 200.b[].c"]);
  });

  test("a property holding a named schema keeps its own description beside the reference", async () => {
    const { doc } = await load();
    const created = doc.paths["/api/listings"]?.post?.responses["201"]?.content?.["application/json"]?.schema;
    expect(created?.properties?.listing).toEqual({
      allOf: [{ $ref: "#/components/schemas/Listing" }],
      description: expect.stringMatching(/\S/),
    });
  });

  test("request bodies and query parameters come from core's schemas", async () => {
    const { doc } = await load();
    const create = doc.paths["/api/listings"]?.post;
    // Inline, titled: a generated client types a defaulted field of a component as required.
    const newListing = create?.requestBody?.content["application/json"]?.schema;
    expect(newListing?.title).toBe("NewListing");
    expect(newListing?.required?.sort()).toEqual(["category", "description", "title"]);
    expect(newListing?.properties?.condition).toMatchObject({ default: "good" });
    const search = doc.paths["/api/listings"]?.get;
    expect(search?.parameters?.map((p) => p.name).sort()).toEqual(
      [
        "category",
        "cursor",
        "facets",
        "limit",
        "max_price",
        "min_price",
        "q",
        "search",
        "sort",
        "status",
        "user_id",
      ].sort(),
    );
    // A price bound is never negative: a number's minimum, a text without a sign.
    for (const name of ["min_price", "max_price"]) {
      const bound = search?.parameters?.find((p) => p.name === name)?.schema;
      expect(bound, name).toMatchObject({
        anyOf: [
          { type: "number", minimum: 0 },
          { type: "string", pattern: expect.stringMatching(/^\^\\d/) },
        ],
      });
    }
    expect(doc.paths["/api/listings/{id}"]?.get?.parameters).toContainEqual(
      expect.objectContaining({ in: "path", name: "id" }),
    );
    expect(doc.paths["/api/parse-pdf"]?.post?.requestBody?.content).toHaveProperty("multipart/form-data");
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
  /** GETs `path`, expecting a 200 whose content type contains `type`: its headers and its text. */
  async function served(path: string, type: string): Promise<{ headers: Headers; text: string }> {
    const res = await harness().call("GET", path);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain(type);
    return { headers: res.headers, text: await res.text() };
  }

  test("the reference page loads its script from this server and names no other host", async () => {
    const { headers, text: html } = await served("/docs", "text/html");
    expect(html).not.toMatch(/https?:\/\//i);
    expect(html).not.toMatch(/src="\/\//);
    expect(html).toContain('src="/docs/scalar.js"');
    expect(html).toContain('"url": "/openapi.json"');
    const nonce = /nonce="([^"]+)"/.exec(html)?.[1];
    expect(headers.get("content-security-policy")).toContain(`'nonce-${nonce}'`);
  });

  test("the Scalar bundle is served locally", async () => {
    const { text } = await served("/docs/scalar.js", "javascript");
    expect(text.length).toBeGreaterThan(100_000);
    expect(text).toContain("createApiReference");
  });
});

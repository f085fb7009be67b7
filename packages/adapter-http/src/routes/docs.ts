import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Scalar } from "@scalar/hono-api-reference";
import { Hono, type Hono as HonoApp } from "hono";
import type { AppEnv } from "../env.js";
import { openApiDocument } from "../openapi.js";
import { type Precompressed, precompress, sendPrecompressed } from "../precompressed.js";
import { operation, type RouteKit } from "../route-kit.js";
import { contentSecurityPolicy } from "../security.js";

const tag = "pages";
const SCALAR_PATH = "/docs/scalar.js";
// Runtime options of the bundle that @scalar/hono-api-reference's types do not list yet.
const HOSTED_FEATURES_OFF = { agent: { disabled: true }, mcp: { disabled: true } };

/**
 * /openapi.json, and the API reference at /docs with Scalar's standalone
 * bundle served from node_modules: no CDN, so the page works offline and the
 * CSP can stay 'self'. The document and the bundle never change while the
 * process runs: each is compressed once, on first request, and served brotli
 * or gzip to clients that accept it (the bundle: 4.35 MB, about 1 MB brotli).
 */
export function docsRoutes(kit: RouteKit, root: () => HonoApp<AppEnv>): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const document = openApiDocument(root, kit);
  let documentBody: Promise<Precompressed> | undefined;

  app.get(
    "/openapi.json",
    operation(kit, {
      rate: "read",
      tag,
      id: "openApiDocument",
      summary: "This OpenAPI document",
      ok: {
        200: {
          description: "OpenAPI 3.1 document",
          content: { "application/json": { schema: { type: "object" } } },
        },
      },
    }),
    async (c) => {
      documentBody ??= document().then((doc) => precompress(new TextEncoder().encode(JSON.stringify(doc))));
      return sendPrecompressed(c, await documentBody, "application/json");
    },
  );

  app.get(
    "/docs",
    operation(kit, {
      rate: "read",
      tag,
      id: "apiReference",
      summary: "Interactive API reference",
      ok: { 200: { description: "HTML page", content: { "text/html": { schema: { type: "string" } } } } },
    }),
    async (c, next) => {
      // The one page with an inline script: a fresh nonce for it, in a policy of its own.
      const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
      c.set("cspNonce", nonce);
      c.header("Content-Security-Policy", contentSecurityPolicy(nonce));
      await next();
    },
    Scalar<AppEnv>((c) => ({
      url: "/openapi.json",
      cdn: SCALAR_PATH,
      pageTitle: "Marketplace API reference",
      nonce: c.get("cspNonce"),
      withDefaultFonts: false,
      telemetry: false,
      showDeveloperTools: "never",
      showToolbar: "never",
      // Hosted Scalar services (AI agent, MCP generator) cannot work offline or under this CSP.
      ...HOSTED_FEATURES_OFF,
    })),
  );

  let bundle: Promise<Precompressed> | undefined;
  app.get(
    SCALAR_PATH,
    operation(kit, {
      rate: "read",
      tag,
      id: "apiReferenceScript",
      summary: "The API reference's script",
      ok: {
        200: { description: "JavaScript", content: { "text/javascript": { schema: { type: "string" } } } },
      },
    }),
    async (c) => {
      bundle ??= readFile(scalarBundlePath()).then((bytes) => precompress(new Uint8Array(bytes)));
      c.header("Cache-Control", "public, max-age=86400");
      return sendPrecompressed(c, await bundle, "text/javascript; charset=utf-8");
    },
  );

  return app;
}

// The browser bundle is not in the package's exports map: find it beside the entry point.
function scalarBundlePath(): string {
  const entry = createRequire(import.meta.url).resolve("@scalar/api-reference");
  return join(dirname(entry), "browser", "standalone.js");
}

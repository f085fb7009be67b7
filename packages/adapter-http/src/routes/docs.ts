import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { contentSecurityPolicy } from "@psm/host";
import { Hono, type Hono as HonoApp } from "hono";
import type { AppEnv } from "../env.js";
import { escapeHtml } from "../html.js";
import { type OpenApiDocument, openApiDocument } from "../openapi.js";
import { type Precompressed, precompress, sendPrecompressed } from "../precompressed.js";
import { operation, type RouteKit } from "../route-kit.js";

const tag = "pages";
const SCALAR_PATH = "/docs/scalar.js";
/** What Scalar's bundle is started with: offline, no telemetry, no hosted services (AI agent, MCP generator). */
const SCALAR_CONFIG = {
  url: "/openapi.json",
  withDefaultFonts: false,
  telemetry: false,
  showDeveloperTools: "never",
  showToolbar: "never",
  agent: { disabled: true },
  mcp: { disabled: true },
};

/**
 * /openapi.json, and the API reference at /docs. With the optional peer
 * `@scalar/api-reference` installed, /docs is Scalar's interactive page and
 * its standalone bundle is served from node_modules (no CDN: the page works
 * offline and the CSP stays 'self'); without it, /docs is a plain HTML page
 * rendered here from the same document, so the default install skips
 * Scalar's ~280 MB of dependencies. The document and the bundle never change
 * while the process runs: each is compressed once, on first request, and
 * served brotli or gzip to clients that accept it (the bundle: 4.35 MB,
 * about 1 MB brotli).
 */
export function docsRoutes(kit: RouteKit, root: () => HonoApp<AppEnv>): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const document = openApiDocument(root, kit);
  const bundlePath = scalarBundlePath();
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

  const docsOperation = operation(kit, {
    rate: "read",
    tag,
    id: "apiReference",
    summary: bundlePath === undefined ? "API reference" : "Interactive API reference",
    ok: { 200: { description: "HTML page", content: { "text/html": { schema: { type: "string" } } } } },
  });

  if (bundlePath === undefined) {
    let page: Promise<Precompressed> | undefined;
    app.get("/docs", docsOperation, async (c) => {
      page ??= document().then((doc) => precompress(new TextEncoder().encode(referencePage(doc))));
      return sendPrecompressed(c, await page, "text/html; charset=utf-8");
    });
    return app;
  }

  app.get("/docs", docsOperation, (c) => {
    // The one page with an inline script: a fresh nonce for it, in a policy of its own.
    const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
    c.set("cspNonce", nonce);
    c.header("Content-Security-Policy", contentSecurityPolicy(nonce));
    return c.html(scalarPage(nonce));
  });

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
      bundle ??= readFile(bundlePath).then((bytes) => precompress(new Uint8Array(bytes)));
      c.header("Cache-Control", "public, max-age=86400");
      return sendPrecompressed(c, await bundle, "text/javascript; charset=utf-8");
    },
  );

  return app;
}

/**
 * Where Scalar's standalone browser bundle is, or undefined when the optional
 * peer `@scalar/api-reference` is not installed. The bundle is not in that
 * package's exports map: it sits beside the entry point.
 */
function scalarBundlePath(): string | undefined {
  try {
    const entry = createRequire(import.meta.url).resolve("@scalar/api-reference");
    return join(dirname(entry), "browser", "standalone.js");
  } catch {
    return undefined;
  }
}

/**
 * Scalar's page: its standalone bundle from this server, started by an inline
 * script that carries the request's nonce (also handed to the bundle for the
 * styles it injects). The configuration is JSON with `<` escaped, so no value
 * can close the script element.
 */
function scalarPage(nonce: string): string {
  const config = JSON.stringify(SCALAR_CONFIG, null, 2).replaceAll("<", "\\u003c");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta property="csp-nonce" content="${nonce}">
<title>Marketplace API reference</title>
</head>
<body>
<div id="app"></div>
<script src="${SCALAR_PATH}" nonce="${nonce}"></script>
<script nonce="${nonce}">Scalar.createApiReference("#app", ${config});</script>
</body>
</html>
`;
}

/** The parts of an OpenAPI 3.1 document the plain reference page shows. */
interface DocumentView {
  info: { title: string; version: string; description?: string };
  tags?: { name: string; description?: string }[];
  paths?: Record<string, Record<string, OperationView | unknown> | undefined>;
}

interface OperationView {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { name?: string; in?: string; required?: boolean; description?: string; schema?: unknown }[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { description?: string }>;
}

const METHODS = ["get", "post", "put", "patch", "delete"];

const PAGE_STYLE = `
body{font:15px/1.5 system-ui,sans-serif;margin:0 auto;max-width:60rem;padding:1rem 1.5rem;color:#1d1d1f}
h2{margin-top:2rem;border-bottom:1px solid #ddd;text-transform:capitalize}
details{margin:.4rem 0;border:1px solid #ddd;border-radius:6px;padding:.4rem .7rem}
summary{cursor:pointer}
code{font:13px/1.4 ui-monospace,monospace}
.m{display:inline-block;min-width:4rem;font-weight:700}
table{border-collapse:collapse;margin:.4rem 0}
td,th{border:1px solid #ddd;padding:.2rem .5rem;text-align:left;vertical-align:top}
`;

/**
 * The API reference without Scalar: every operation of `doc`, grouped by tag,
 * with its auth, parameters, request body and answers. Everything taken from
 * the document is escaped; the page loads nothing (its only link is
 * /openapi.json) and runs no script.
 */
export function referencePage(doc: OpenApiDocument): string {
  const view = doc as unknown as DocumentView;
  const groups = new Map<string, string[]>((view.tags ?? []).map((t) => [t.name, []]));
  for (const [path, item] of Object.entries(view.paths ?? {})) {
    for (const method of METHODS) {
      const op = item?.[method] as OperationView | undefined;
      if (op === undefined) continue;
      const name = op.tags?.[0] ?? "other";
      const list = groups.get(name) ?? [];
      list.push(operationHtml(method, path, op));
      groups.set(name, list);
    }
  }
  const sections = [...groups].filter(([, ops]) => ops.length > 0);
  const nav = sections
    .map(([name]) => `<a href="#tag-${escapeHtml(name)}">${escapeHtml(name)}</a>`)
    .join(" · ");
  const body = sections
    .map(([name, ops]) => `<h2 id="tag-${escapeHtml(name)}">${escapeHtml(name)}</h2>\n${ops.join("\n")}`)
    .join("\n");
  const title = `${view.info.title} ${view.info.version}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(view.info.description ?? "")}</p>
<p>The machine-readable document: <a href="/openapi.json">/openapi.json</a>.</p>
<nav>${nav}</nav>
${body}
</body>
</html>
`;
}

function operationHtml(method: string, path: string, op: OperationView): string {
  const parts = [
    op.description ? `<p>${escapeHtml(op.description)}</p>` : "",
    `<p>Auth: ${escapeHtml(authLabel(op.security))}</p>`,
    rows(
      ["parameter", "in", "type", "description"],
      (op.parameters ?? []).map((p) => [
        `${p.name ?? ""}${p.required ? " *" : ""}`,
        p.in ?? "",
        schemaLabel(p.schema),
        p.description ?? "",
      ]),
    ),
    rows(
      ["request body", "schema"],
      Object.entries(op.requestBody?.content ?? {}).map(([type, media]) => [type, schemaLabel(media.schema)]),
    ),
    rows(
      ["status", "answer"],
      Object.entries(op.responses ?? {}).map(([status, res]) => [status, res.description ?? ""]),
    ),
  ];
  const id = op.operationId ? ` id="${escapeHtml(op.operationId)}"` : "";
  return `<details${id}><summary><code class="m">${method.toUpperCase()}</code> <code>${escapeHtml(path)}</code> ${escapeHtml(op.summary ?? "")}</summary>
${parts.filter((part) => part !== "").join("\n")}
</details>`;
}

function rows(head: string[], cells: string[][]): string {
  if (cells.length === 0) return "";
  const th = head.map((h) => `<th>${escapeHtml(h)}</th>`).join("");
  const trs = cells.map((row) => `<tr>${row.map((cell) => `<td>${escapeHtml(cell)}</td>`).join("")}</tr>`);
  return `<table><tr>${th}</tr>${trs.join("")}</table>`;
}

function authLabel(security: OperationView["security"]): string {
  if (security === undefined || security.length === 0) return "none";
  const schemes = security.map((s) => Object.keys(s).join(" + ") || "anonymous");
  return schemes.join(" or ");
}

function schemaLabel(schema: unknown): string {
  if (typeof schema !== "object" || schema === null) return "";
  const s = schema as {
    $ref?: string;
    type?: string | string[];
    items?: unknown;
    enum?: unknown[];
    anyOf?: unknown[];
  };
  if (s.$ref !== undefined) return s.$ref.split("/").pop() ?? s.$ref;
  if (s.enum !== undefined) return s.enum.map(String).join(" | ");
  if (s.anyOf !== undefined) return [...new Set(s.anyOf.map(schemaLabel))].join(" | ");
  if (s.type === "array") return `${schemaLabel(s.items) || "any"}[]`;
  return Array.isArray(s.type) ? s.type.join(" | ") : (s.type ?? "object");
}

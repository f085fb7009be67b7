import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { type Actor, type Marketplace, MarketplaceError } from "@psm/core";
import { type Context, Hono, type MiddlewareHandler } from "hono";
import { readJsonBody } from "./body.js";
import { callerOf } from "./caller.js";
import { llmsTxt } from "./llms-txt.js";
import { describeLlmsTxt, describeMcp, describeProtectedResource } from "./openapi.js";
import { isAllowedOrigin } from "./origin.js";
import {
  MCP_PATH,
  PROTECTED_RESOURCE_PATH,
  protectedResourceMetadata,
  wwwAuthenticate,
} from "./protected-resource.js";
import { type RateClass, rateClassesOf } from "./rate-classes.js";
import { READ_ONLY_HEADER, READ_ONLY_PARAM, readOnlyRequested } from "./read-only.js";
import { createMcpServer } from "./server.js";
import type { CapabilitiesSummary, ErrorLogger, McpTool } from "./tool.js";

const MIB = 1024 * 1024;

/** What the credential check in front of this app leaves in the context (adapter-http's authenticate). */
export interface McpVariables {
  actor: Actor;
  authError?: Error;
}

/** The options of createMcpApp. */
export interface McpAppOptions {
  marketplace: Marketplace;
  /** The tool catalog (adapter-http's apiCatalog().tools). */
  tools: readonly McpTool[];
  /** The capabilities document, for /llms.txt and the server's identity. */
  capabilities: CapabilitiesSummary;
  /** The server's base URL (PUBLIC_URL), without a trailing slash. */
  publicUrl: string;
  /** Origins a browser may call /mcp from (see allowedOrigins); requests without Origin always may. */
  allowedOrigins: readonly string[];
  /** MCP_READ_ONLY: no session lists or runs a tool that writes. */
  readOnly?: boolean;
  /** Largest request body of a signed-in caller: a document for draft_listing_from_document travels in it as base64. */
  maxBodyBytes: number;
  /** Largest request body without credentials, who can call no tool that takes a document; 1 MiB by default. */
  maxAnonymousBodyBytes?: number;
  /**
   * The API's rate limiters by class, run around each JSON-RPC message: a
   * call of a tool that writes counts as a write, a document as an upload,
   * anything else as a read. A limiter refuses by throwing (429).
   */
  rateLimit?: Partial<Record<RateClass, MiddlewareHandler>>;
  logger?: ErrorLogger;
}

/**
 * The agent surface of the server as a Hono app to mount at `/` beside the
 * API (createHttpApp's `surfaces`): POST /mcp, the MCP endpoint (stateless
 * Streamable HTTP: a fresh server and transport per request, JSON answers);
 * /llms.txt; and the endpoint's protected-resource metadata (RFC 9728). It runs
 * behind the API's request id, access log, security headers, CORS and
 * credential check, and reads the caller that check leaves.
 */
export function createMcpApp(options: McpAppOptions): Hono<{ Variables: McpVariables }> {
  const { capabilities, publicUrl } = options;
  const app = new Hono<{ Variables: McpVariables }>();
  const text = llmsTxt(publicUrl, capabilities, options.tools);
  const metadata = protectedResourceMetadata(publicUrl, capabilities.name);
  const info = { name: "psm-marketplace", title: capabilities.name, version: capabilities.version };

  app.get("/llms.txt", describeLlmsTxt, (c) => c.text(text, 200, { "Cache-Control": "public, max-age=300" }));
  app.get(PROTECTED_RESOURCE_PATH, describeProtectedResource, (c) =>
    c.json(metadata, 200, { "Cache-Control": "public, max-age=300" }),
  );
  // Stateless: no session to resume and no stream to open, which the transport says with 405.
  app.on(["GET", "DELETE"], MCP_PATH, (c) => {
    c.header("Allow", "POST");
    return c.json(jsonRpcError(-32000, "Method not allowed: POST JSON-RPC messages to this endpoint"), 405);
  });
  // Answers carry messages, keys and accounts: no cache keeps them (decisions.md "Caching").
  app.use(MCP_PATH, async (c, next) => {
    await next();
    c.res.headers.set("Cache-Control", "no-store");
  });
  app.post(MCP_PATH, describeMcp, async (c) => {
    if (!isAllowedOrigin(c.req.header("origin"), options.allowedOrigins)) {
      return c.json({ error: "Origin not allowed", code: "forbidden" }, 403);
    }
    if (c.get("actor") === undefined)
      throw new Error("mount the MCP app behind createHttpApp: it reads its caller");
    const { actor, authError } = await callerOf(options.marketplace, c.req.raw.headers, {
      actor: c.get("actor"),
      authError: c.get("authError"),
    });
    if (authError) {
      // Counted as a read first, so guessing credentials here is rate limited as on the API.
      return limited(c, ["read"], options.rateLimit, async () => unauthorized(c, authError, publicUrl));
    }
    const readOnly =
      (options.readOnly ?? false) ||
      readOnlyRequested(c.req.header(READ_ONLY_HEADER), c.req.query(READ_ONLY_PARAM));
    const limit = actor.kind === "user" ? options.maxBodyBytes : (options.maxAnonymousBodyBytes ?? MIB);
    const body = await readJsonBody(c.req.raw, limit);
    if (body === undefined) return c.json(jsonRpcError(-32700, "Parse error: the body is not JSON"), 400);
    const classes = rateClassesOf(body.json, options.tools);
    return limited(c, classes, options.rateLimit, async () => {
      const server = createMcpServer(options.marketplace, actor, {
        tools: options.tools,
        readOnly,
        info,
        ...(options.logger ? { logger: options.logger } : {}),
      });
      // JSON answers, not an SSE stream: every call finishes within its request.
      const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
      try {
        await server.connect(transport);
        return await transport.handleRequest(c.req.raw, { parsedBody: body.json });
      } finally {
        await transport.close();
        await server.close();
      }
    });
  });
  return app;
}

/**
 * Runs `answer` inside the limiters of `classes`, outermost first, as a route
 * runs inside its middleware: the answer becomes `c.res` within the innermost
 * `next`, so a limiter that looks at the response after `next` sees it.
 */
async function limited(
  c: Context,
  classes: readonly RateClass[],
  limiters: McpAppOptions["rateLimit"],
  answer: () => Promise<Response>,
): Promise<Response> {
  const run = async (index: number): Promise<void> => {
    const klass = classes[index];
    if (klass === undefined) {
      c.res = await answer();
      return;
    }
    const limiter = limiters?.[klass];
    if (limiter === undefined) return run(index + 1);
    await limiter(c, () => run(index + 1));
  };
  await run(0);
  return c.res;
}

/** 401 for a presented credential that failed, pointing at the resource metadata (RFC 9728). */
function unauthorized(c: Context, error: Error, publicUrl: string): Response {
  const message = error instanceof MarketplaceError ? error.message : "Authentication required";
  c.header("WWW-Authenticate", wwwAuthenticate(publicUrl));
  return c.json({ error: message, code: "unauthenticated" }, 401);
}

function jsonRpcError(code: number, message: string) {
  return { jsonrpc: "2.0", error: { code, message }, id: null };
}

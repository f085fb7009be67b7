import { type Actor, isMarketplaceError, type Marketplace, MarketplaceError, SCOPES } from "@psm/core";
import {
  assertStorableUrl,
  createUploadGate,
  type HostVariables,
  MAX_JSON_DEPTH,
  type PrivatePath,
  parseJson,
  type RateLimitHooks,
  readBody,
  runLimited,
  type Surface,
  topLevelCount,
  type UploadGate,
} from "@psm/host";
import { type Context, Hono } from "hono";
import { llmsTxt } from "./llms-txt.js";
import { describeLlmsTxt, describeMcp, describeProtectedResource } from "./openapi.js";
import { isAllowedOrigin } from "./origin.js";
import {
  MCP_PATH,
  PROTECTED_RESOURCE_PATH,
  protectedResourceMetadata,
  wwwAuthenticate,
} from "./protected-resource.js";
import { rateClassesOf } from "./rate-classes.js";
import { READ_ONLY_HEADER, READ_ONLY_PARAM, readOnlyRequested } from "./read-only.js";
import type { CapabilitiesSummary, ErrorLogger, McpTool } from "./tool.js";

const MIB = 1024 * 1024;

/**
 * The MCP SDK (its server, transport, zod and ajv: about 7 MB of heap) loads on the first
 * POST /mcp, not with the surface: a server that no agent calls never holds it.
 */
let sdk:
  | Promise<
      [
        typeof import("./server.js"),
        typeof import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"),
      ]
    >
  | undefined;
const loadSdk = () =>
  (sdk ??= Promise.all([
    import("./server.js"),
    import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"),
  ]));

/** What the host leaves in the context of this app (the caller, the client address, the limiter's class). */
export type McpVariables = HostVariables;

/** The options of createMcpApp. */
export interface McpAppOptions {
  marketplace: Marketplace;
  /** The tools (apiCatalog().tools, from the registry). */
  tools: readonly McpTool[];
  /** The capabilities document, for /llms.txt and the server's identity. */
  capabilities: CapabilitiesSummary;
  /** The server's base URL (PUBLIC_URL), without a trailing slash. */
  publicUrl: string;
  /** Origins a browser may call /mcp from (see allowedOrigins); requests without Origin always may. */
  allowedOrigins: readonly string[];
  /** MCP_READ_ONLY: no session lists or runs a tool that writes. */
  readOnly?: boolean;
  /** The server is its own OAuth authorization server (OAUTH on): the resource metadata names it. */
  oauth?: boolean;
  /**
   * A caller without credentials may use the public read tools (true, the default, as in 1.2).
   * False answers it 401 with the resource metadata, which is what makes remote MCP clients that
   * sign in only when asked start the OAuth flow from the URL alone.
   */
  anonymous?: boolean;
  /** Largest request body of a signed-in caller: a document for draft_listing_from_document travels in it as base64. */
  maxBodyBytes: number;
  /** Largest request body without credentials, who can call no tool that takes a document; 1 MiB by default. */
  maxAnonymousBodyBytes?: number;
  /**
   * Largest body of a signed-in caller read outside the upload gate (1 MiB by default, at most
   * maxBodyBytes): a larger one, or one without a Content-Length, can only be a document and goes
   * through the gate's per-caller share, deadline, stall bound and process byte budget.
   */
  maxJsonBytes?: number;
  /** The host's upload gate, shared with the other surfaces that take documents; one of its own by default. */
  uploads?: UploadGate;
  /**
   * The host's rate limiters by class, run around each JSON-RPC message: a
   * call of a tool that writes counts as a write, a document as an upload,
   * anything else as a read. A limiter refuses by throwing (429).
   */
  rateLimit?: RateLimitHooks;
  logger?: ErrorLogger;
}

/**
 * The agent surface of the server as a Hono app to mount at `/` beside the
 * API (createHttpApp's `surfaces`): POST /mcp, the MCP endpoint (stateless
 * Streamable HTTP: a fresh server and transport per request, JSON answers);
 * /llms.txt; and the endpoint's protected-resource metadata (RFC 9728). It runs
 * under the host (@psm/host's createHost: request id, access log, security
 * headers, CORS, the caller) and reads bodies, runs limiters and takes upload
 * shares through the host's one reader, runner and gate.
 */
export function createMcpApp(options: McpAppOptions): Hono<{ Variables: McpVariables }> {
  const { capabilities, publicUrl } = options;
  const app = new Hono<{ Variables: McpVariables }>();
  const text = llmsTxt(publicUrl, capabilities, options.tools);
  const metadata = protectedResourceMetadata(
    publicUrl,
    capabilities.name,
    options.oauth ? { scopes: SCOPES } : undefined,
  );
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
  // Answers carry messages, keys and accounts: no cache keeps them (decisions.md "Caching"). The
  // host marks them so before the route runs (MCP_PRIVATE_PATHS); this holds for a bare app too.
  app.use(MCP_PATH, async (c, next) => {
    await next();
    c.res.headers.set("Cache-Control", "no-store");
  });
  const uploads = options.uploads ?? createUploadGate({ maxFileBytes: 10 * MIB });
  const jsonLimit = Math.min(options.maxJsonBytes ?? MIB, options.maxBodyBytes);
  app.post(MCP_PATH, describeMcp, async (c) => {
    if (!isAllowedOrigin(c.req.header("origin"), options.allowedOrigins)) {
      return c.json({ error: "Origin not allowed", code: "forbidden" }, 403);
    }
    if (c.get("actor") === undefined)
      throw new Error("mount the MCP app under the host: it reads its caller");
    const actor = c.get("actor");
    const authError = c.get("authError");
    if (authError) {
      // Counted as a read first, so guessing credentials here is rate limited as on the API.
      return runLimited(c, ["read"], options.rateLimit, async () => unauthorized(c, authError, publicUrl));
    }
    if (actor.kind !== "user" && options.anonymous === false) {
      return runLimited(c, ["read"], options.rateLimit, async () => signInFirst(c, publicUrl));
    }
    // The query string obeys core's text rule here as on every surface (decisions.md "Strings").
    assertStorableUrl(c);
    const readOnly =
      (options.readOnly ?? false) ||
      readOnlyRequested(c.req.header(READ_ONLY_HEADER), c.req.query(READ_ONLY_PARAM));
    const held: (() => void)[] = [];
    try {
      const bytes = await readMcpBody(c, actor, held);
      const messages = topLevelCount(bytes, MAX_BATCH);
      if (messages > MAX_BATCH) {
        return c.json(jsonRpcError(-32600, `Invalid request: at most ${MAX_BATCH} messages in a batch`), 400);
      }
      let json: unknown;
      try {
        json = parseJson(bytes, MAX_JSON_RPC_DEPTH);
      } catch (error) {
        // Too deep is the API's answer to the same arguments; text that is not JSON, the protocol's.
        if (isMarketplaceError(error, "invalid_input")) throw error;
        return c.json(jsonRpcError(-32700, "Parse error: the body is not JSON"), 400);
      }
      // Counted as the REST calls they stand for, right after the bounded parse and before any runs.
      const classes = rateClassesOf(json, options.tools);
      const upload = classes.includes("upload");
      if (upload && actor.kind === "user" && held.length === 0) held.push(uploads.admit(actor.user.id));
      return await runLimited(c, classes, options.rateLimit, async () => {
        const answer = () => handle(json, actor, readOnly, c.req.raw);
        return upload ? uploads.parse(answer) : answer();
      });
    } finally {
      for (const release of held) release();
    }
  });

  /**
   * The body, read by the host's one reader: an anonymous caller's within its small limit; a
   * signed-in caller's within the JSON limit unless it declares a larger Content-Length, which
   * only a document needs: that one goes through the upload gate (its share is taken before a
   * byte is read, and released through `held` once the request is answered).
   */
  const readMcpBody = async (c: Context, actor: Actor, held: (() => void)[]) => {
    if (actor.kind !== "user") {
      return (await readBody(c, { maxBytes: options.maxAnonymousBodyBytes ?? MIB })).bytes;
    }
    const declared = Number(c.req.header("content-length") ?? Number.NaN);
    if (!(declared > jsonLimit)) return (await readBody(c, { maxBytes: jsonLimit })).bytes;
    held.push(uploads.admit(actor.user.id));
    const body = await uploads.read(c, actor.user.id, "base64-json", options.maxBodyBytes);
    held.push(body.release);
    return body.bytes;
  };

  const handle = async (json: unknown, actor: Actor, readOnly: boolean, request: Request) => {
    const [{ createMcpServer }, { WebStandardStreamableHTTPServerTransport }] = await loadSdk();
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
      return await transport.handleRequest(request, { parsedBody: json });
    } finally {
      await transport.close();
      await server.close();
    }
  };
  return app;
}

/**
 * How deep a JSON-RPC body may nest: the API's bound for a body, plus the two levels (`params`,
 * `arguments`) a tool call's arguments sit under, so that arguments get what a REST body gets.
 */
const MAX_JSON_RPC_DEPTH = MAX_JSON_DEPTH + 2;

/** Messages one request may carry: a batch is refused by its count before it is parsed or counted. */
export const MAX_BATCH = 16;

/** 401 for a presented credential that failed, pointing at the resource metadata (RFC 9728). */
function unauthorized(c: Context, error: Error, publicUrl: string): Response {
  const message = error instanceof MarketplaceError ? error.message : "Authentication required";
  c.header("WWW-Authenticate", wwwAuthenticate(publicUrl));
  return c.json({ error: message, code: "unauthenticated" }, 401);
}

/**
 * 401 for a request without credentials when anonymous use is off: no error code (RFC 6750
 * section 3.1: none was presented), the resource metadata named so the client can sign in.
 */
function signInFirst(c: Context, publicUrl: string): Response {
  c.header("WWW-Authenticate", `Bearer resource_metadata="${publicUrl}${PROTECTED_RESOURCE_PATH}"`);
  return c.json(
    { error: "Sign in first: this server takes no anonymous MCP calls", code: "unauthenticated" },
    401,
  );
}

/** The agent surface's paths whose every answer, errors included, is private. */
export const MCP_PRIVATE_PATHS: readonly PrivatePath[] = [{ path: MCP_PATH, privacy: "always" }];

/** The agent surface for the host (createHttpApp's `surfaces`, before the pages' catch-all). */
export function createMcpSurface(options: McpAppOptions): Surface {
  return { path: "/", app: createMcpApp(options), private: MCP_PRIVATE_PATHS };
}

function jsonRpcError(code: number, message: string) {
  return { jsonrpc: "2.0", error: { code, message }, id: null };
}

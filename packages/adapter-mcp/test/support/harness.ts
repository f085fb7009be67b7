import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { createHttpApp, type HttpConfig } from "@psm/adapter-http";
import { type Actor, createMarketplace, type Marketplace, type SecurityMode } from "@psm/core";
import { createTestDeps, type TestDeps } from "@psm/core/testing";
import {
  type ApiCatalog,
  allowedOrigins,
  apiCatalog,
  createMcpServer,
  createMcpSurface,
  type McpAppOptions,
} from "../../src/index.js";

/** The base URL the in-process server believes it has. */
export const PUBLIC_URL = "http://market.test";

/** A signed-up user with a JWT and an API key. */
export interface Member {
  id: string;
  email: string;
  token: string;
  key: string;
}

/** A marketplace in memory with the tool catalog and ways to reach it as an MCP client. */
export interface Harness {
  deps: TestDeps;
  marketplace: Marketplace;
  catalog: ApiCatalog;
  /** The API with the MCP surface mounted, called in process. */
  app: ReturnType<typeof createHttpApp>;
  member(label?: string): Promise<Member>;
  admin(): Promise<Member>;
  actorOf(credentials: { apiKey?: string; bearer?: string }): Promise<Actor>;
  /** An SDK client linked in memory to a server made for `actor`. */
  linked(actor: Actor, options?: { readOnly?: boolean }): Promise<Client>;
  /** An SDK client over Streamable HTTP to the in-process app, with these request headers. */
  overHttp(headers?: Record<string, string>, path?: string): Promise<Client>;
  /** A raw POST to the app (for what an SDK client never sends). */
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
}

let serial = 0;

/** Builds a harness; `mcp` overrides the MCP app's options, `http` the API's. */
export async function harness(
  mode: SecurityMode = "strict",
  mcp: Partial<McpAppOptions> = {},
  http: Partial<HttpConfig> = {},
): Promise<Harness> {
  const deps = createTestDeps({ settings: { securityMode: mode, publicUrl: PUBLIC_URL } });
  const marketplace = createMarketplace(deps);
  const config: HttpConfig = { corsOrigins: ["https://app.example"], publicUrl: PUBLIC_URL, ...http };
  const catalog = await apiCatalog(config, marketplace.settings);
  const surface = createMcpSurface({
    marketplace,
    tools: catalog.tools,
    capabilities: catalog.capabilities,
    publicUrl: PUBLIC_URL,
    allowedOrigins: allowedOrigins(PUBLIC_URL, config.corsOrigins),
    maxBodyBytes: 2 * 1024 * 1024,
    ...mcp,
  });
  const app = createHttpApp({ marketplace, config, surfaces: [surface] });

  const signUp = async (email: string, password: string): Promise<Member> => {
    const { user, token } = await marketplace.auth.logIn({ email, password });
    const actor = await marketplace.auth.authenticate({ bearer: token });
    const created = await marketplace.apiKeys.create(actor, { name: "agent" });
    return { id: user.id, email, token, key: created.secret };
  };
  const h: Harness = {
    deps,
    marketplace,
    catalog,
    app,
    async member(label = "member") {
      const email = `${label}-${++serial}@example.com`;
      await marketplace.auth.signUp({ email, password: "secret-password" });
      return signUp(email, "secret-password");
    },
    async admin() {
      const email = `admin-${++serial}@example.com`;
      await marketplace.admin.ensureAdmin({ email, password: "admin-password" });
      return signUp(email, "admin-password");
    },
    actorOf: (credentials) => marketplace.auth.authenticate(credentials),
    async linked(actor, options = {}) {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await createMcpServer(marketplace, actor, { tools: catalog.tools, ...options }).connect(serverSide);
      const client = new Client({ name: "harness", version: "1.0.0" });
      await client.connect(clientSide);
      return client;
    },
    async overHttp(headers = {}, path = "/mcp") {
      const transport = new StreamableHTTPClientTransport(new URL(`${PUBLIC_URL}${path}`), {
        requestInit: { headers },
        fetch: async (url, init) => app.request(String(url), init),
      });
      const client = new Client({ name: "harness", version: "1.0.0" });
      await client.connect(transport);
      return client;
    },
    post: async (path, body, headers = {}) =>
      app.request(path, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
          ...headers,
        },
        body: typeof body === "string" ? body : JSON.stringify(body),
      }),
  };
  return h;
}

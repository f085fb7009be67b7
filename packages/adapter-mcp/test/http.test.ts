import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createRateLimitHooks } from "@psm/adapter-http";
import type { MiddlewareHandler } from "hono";
import { beforeAll, describe, expect, it } from "vitest";
import { ok, str, toolNames, writeTools } from "./support/calls.js";
import { type Harness, harness, PUBLIC_URL } from "./support/harness.js";

// The MCP surface mounted on the API app, called in process over Streamable
// HTTP: the SDK client with a fetch that goes to app.request().

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

describe("/mcp over HTTP", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness();
  });

  it("answers the API's credentials: X-API-Key, Bearer API key and Bearer JWT", async () => {
    const alice = await h.member("alice");
    const presented: Record<string, string>[] = [
      { "X-API-Key": alice.key },
      { Authorization: `Bearer ${alice.key}` },
      { Authorization: `Bearer ${alice.token}` },
    ];
    for (const headers of presented) {
      const client = await h.overHttp(headers);
      expect((await ok(client, "whoami")).user?.id).toBe(alice.id);
      await client.close();
    }
  });

  it("lists only public read-only tools without credentials", async () => {
    const client = await h.overHttp();
    expect(await writeTools(client)).toEqual([]);
    expect(await toolNames(client)).toEqual([
      "whoami",
      "search_listings",
      "get_listing",
      "list_categories",
      "get_listing_limit",
    ]);
  });

  it("answers a bad credential 401 with WWW-Authenticate pointing at the resource metadata it serves", async () => {
    const bad: Record<string, string>[] = [
      { "X-API-Key": "psm_nope" },
      { Authorization: "Bearer not-a-jwt" },
    ];
    for (const headers of bad) {
      const res = await h.post("/mcp", INITIALIZE, headers);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ code: "unauthenticated" });
      expect(res.headers.get("www-authenticate")).toBe(
        `Bearer error="invalid_token", resource_metadata="${PUBLIC_URL}/.well-known/oauth-protected-resource/mcp"`,
      );
    }
    const metadata = await h.app.request("/.well-known/oauth-protected-resource/mcp");
    expect(metadata.status).toBe(200);
    expect(await metadata.json()).toMatchObject({
      resource: `${PUBLIC_URL}/mcp`,
      bearer_methods_supported: ["header"],
    });
    await expect(h.overHttp({ "X-API-Key": "psm_nope" })).rejects.toMatchObject({ code: 401 });
  });

  it("with anonymous use off, asks a caller without credentials to sign in: 401 naming the metadata", async () => {
    const closed = await harness("strict", { anonymous: false, oauth: true });
    const res = await closed.post("/mcp", INITIALIZE);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: "unauthenticated" });
    // No error code: none was presented (RFC 6750 section 3.1); the metadata tells the client where to sign in.
    expect(res.headers.get("www-authenticate")).toBe(
      `Bearer resource_metadata="${PUBLIC_URL}/.well-known/oauth-protected-resource/mcp"`,
    );
    await expect(closed.overHttp()).rejects.toMatchObject({ code: 401 });
    // A signed-in caller is served as ever.
    const alice = await closed.member("alice");
    const client = await closed.overHttp({ "X-API-Key": alice.key });
    expect((await ok(client, "whoami")).user?.id).toBe(alice.id);
    await client.close();
  });

  it("refuses an Origin that is neither the server's own nor a CORS origin with 403", async () => {
    const evil = await h.post("/mcp", INITIALIZE, { Origin: "http://evil.example" });
    expect(evil.status).toBe(403);
    expect(await evil.json()).toEqual({ error: "Origin not allowed", code: "forbidden" });
    await expect(h.overHttp({ Origin: "http://evil.example" })).rejects.toBeInstanceOf(StreamableHTTPError);
    for (const origin of [PUBLIC_URL, "https://app.example"]) {
      const allowed = await h.post("/mcp", INITIALIZE, { Origin: origin });
      expect(allowed.status).toBe(200);
      expect(allowed.headers.get("cache-control")).toBe("no-store");
    }
  });

  it("opens a read-only session per request, by query or header; any other value is 400", async () => {
    const alice = await h.member();
    const byQuery = await h.overHttp({ "X-API-Key": alice.key }, "/mcp?read_only=true");
    expect(await writeTools(byQuery)).toEqual([]);
    const byHeader = await h.overHttp({ "X-API-Key": alice.key, "X-MCP-Read-Only": "true" });
    expect(await writeTools(byHeader)).toEqual([]);
    const writable = await h.overHttp({ "X-API-Key": alice.key, "X-MCP-Read-Only": "false" });
    expect(await writeTools(writable)).toContain("create_listing");
    const bad = await h.post("/mcp?read_only=maybe", INITIALIZE, { "X-API-Key": alice.key });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: "invalid_input" });
  });

  it("is POST only; malformed JSON is a parse error; an oversized body is 413", async () => {
    expect((await h.app.request("/mcp")).status).toBe(405);
    const malformed = await h.post("/mcp", "{not json");
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32700 } });
    // Without credentials a smaller body: only a signed-in caller can send a document.
    const small = await harness("strict", { maxBodyBytes: 4096, maxAnonymousBodyBytes: 1024 });
    const member = await small.member();
    const padded = (size: number) => ({
      ...INITIALIZE,
      params: { ...INITIALIZE.params, clientInfo: { name: "x".repeat(size), version: "1" } },
    });
    const anonymous = await small.post("/mcp", padded(2048));
    expect(anonymous.status).toBe(413);
    expect(await anonymous.json()).toMatchObject({ code: "payload_too_large" });
    expect((await small.post("/mcp", padded(2048), { "X-API-Key": member.key })).status).toBe(200);
    expect((await small.post("/mcp", padded(8192), { "X-API-Key": member.key })).status).toBe(413);
  });

  it("serves 20 concurrent tool calls, each on a server of its own", async () => {
    const [alice, bob] = [await h.member(), await h.member()];
    const created = await ok(await h.overHttp({ "X-API-Key": alice.key }), "create_listing", {
      title: "Busy",
      description: "Parallel",
      category: "data-analytics",
    });
    const listing = { id: str(created.listing?.id) };
    const client = await h.overHttp({ "X-API-Key": bob.key });
    const bodies = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        ok(client, "send_message", {
          listing_id: listing.id,
          receiver_id: alice.id,
          content: `Message ${i}`,
          idempotency_key: `parallel-${i}`,
        }),
      ),
    );
    expect(new Set(bodies.map((body) => str(body.data?.id))).size).toBe(20);
    expect(new Set(bodies.map((body) => str(body.data?.untrusted_content))).size).toBe(20);
  });

  it("is described in /openapi.json with the server's other routes", async () => {
    const doc = (await (await h.app.request("/openapi.json")).json()) as {
      paths: Record<string, Record<string, { operationId?: string }>>;
      components: { schemas: Record<string, unknown> };
    };
    expect(doc.paths["/mcp"]?.post?.operationId).toBe("mcp");
    expect(doc.paths["/llms.txt"]?.get?.operationId).toBe("llms_txt");
    expect(doc.paths["/.well-known/oauth-protected-resource/mcp"]?.get?.operationId).toBe(
      "mcp_protected_resource",
    );
    expect(doc.components.schemas.Error).toBeDefined();
  });

  it("serves /llms.txt from the registry: service, connection, tools and endpoints", async () => {
    const res = await h.app.request("/llms.txt");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toMatch(/^# Professional-Services Marketplace\n/);
    expect(text).toContain(`${PUBLIC_URL}/mcp`);
    for (const tool of h.catalog.tools) expect(text).toContain(`- ${tool.name} (`);
    for (const endpoint of h.catalog.capabilities.capabilities) {
      expect(text).toContain(`- ${endpoint.method} ${endpoint.path} (`);
    }
  });

  it("describes searching in /llms.txt: q, the price range, the sorts and facets", async () => {
    const text = await (await h.app.request("/llms.txt")).text();
    expect(text).toContain("## Searching listings");
    for (const name of ["q", "min_price", "max_price", "sort", "facets", "search", "cursor"]) {
      expect(text).toMatch(new RegExp(`\\n- ${name}: \\S`));
    }
    expect(text).toContain("English stemming (consulting finds consultant)");
    expect(h.catalog.capabilities.limits).toMatchObject({ search_q_max_length: 200, search_q_max_words: 8 });
  });
});

describe("MCP_READ_ONLY and rate limits", () => {
  it("a read-only server lists zero write tools to anyone, and per request cannot widen it", async () => {
    const h = await harness("strict", { readOnly: true });
    const admin = await h.admin();
    const client = await h.overHttp({ Authorization: `Bearer ${admin.token}`, "X-MCP-Read-Only": "false" });
    expect(await writeTools(client)).toEqual([]);
    expect(await toolNames(client)).toContain("admin_list_users");
  });

  it("is refused 429 by the API's own limiter past the write quota, reads still served", async () => {
    const hooks = createRateLimitHooks({
      policies: { write: { name: "write", limit: 1, windowMs: 60_000 } },
    });
    const h = await harness("strict", { rateLimit: { read: hooks.read, write: hooks.write } });
    const alice = await h.member();
    const client = await h.overHttp({ "X-API-Key": alice.key });
    const listing = { title: "A", description: "B", category: "cybersecurity" };
    await ok(client, "create_listing", listing);
    await expect(client.callTool({ name: "create_listing", arguments: listing })).rejects.toMatchObject({
      code: 429,
    });
    expect((await ok(client, "search_listings", { user_id: alice.id })).count).toBe(1);
  });

  it("counts each message with the API limiter of its class", async () => {
    const seen: string[] = [];
    const count =
      (name: string): MiddlewareHandler =>
      async (_c, next) => {
        seen.push(name);
        await next();
      };
    const h = await harness("strict", {
      rateLimit: { read: count("read"), write: count("write"), upload: count("upload") },
    });
    const alice = await h.member();
    const client = await h.overHttp({ "X-API-Key": alice.key });
    seen.length = 0;
    await client.callTool({ name: "search_listings", arguments: {} });
    await client.callTool({
      name: "create_listing",
      arguments: { title: "A", description: "B", category: "cybersecurity" },
    });
    await client.callTool({
      name: "draft_listing_from_document",
      arguments: { filename: "a.txt", content_base64: Buffer.from("hello").toString("base64") },
    });
    expect(seen).toEqual(["read", "write", "upload"]);
  });
});

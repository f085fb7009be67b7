import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BACKENDS, reportSkippedPostgres } from "../support/backends.js";
import { arr, expectStatus, str } from "../support/http.js";
import {
  callTool,
  connectHttp,
  connectStdio,
  failedTool,
  okTool,
  writeTools,
} from "../support/mcp-client.js";
import { type Account, startWorld, type World } from "../support/world.js";

// The MCP server of the compiled server process, through the SDK's real
// Client over Streamable HTTP and over stdio (psm-mcp), on each backend. One
// server per backend, started side by side; each test signs up its own users.

const starting = new Map<string, Promise<World>>();
const APP_ORIGIN = "https://app.example";
const UNKNOWN = "0190a3b4-5c6d-7e8f-9012-3456789abcde";
const LISTING = { title: "Data audit", description: "Two weeks of work.", category: "data-analytics" };

reportSkippedPostgres("the MCP server");

beforeAll(() => {
  for (const backend of BACKENDS) {
    // A port of its own: PUBLIC_URL (the MCP resource's address) must name it.
    const deployment = startWorld(backend, "strict", { CORS_ORIGINS: APP_ORIGIN }, { ownPort: true });
    deployment.catch(() => {}); // reported by the backend that awaits it
    starting.set(backend, deployment);
  }
});

afterAll(async () => {
  await Promise.allSettled([...starting.values()].map(async (d) => (await d).stop()));
});

describe.each(BACKENDS)("MCP on %s", (backend) => {
  let d: World;
  const clients: Client[] = [];
  const as = async (account: Account | null, query = ""): Promise<Client> => {
    const client = await connectHttp(d.url, account ? { "X-API-Key": account.key } : {}, query);
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    const deployment = await starting.get(backend);
    if (!deployment) throw new Error("the server did not start (see beforeAll)");
    d = deployment;
  });
  afterAll(async () => {
    await Promise.allSettled(clients.map((client) => client.close()));
  });

  it("an agent with a URL and a key discovers, drafts from a document, publishes, messages an author, retries safely", async () => {
    const [author, agent] = [await d.account("author"), await d.account("agent")];
    const asAgent = await as(agent);
    const names = (await asAgent.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining(["search_listings", "draft_listing_from_document", "send_message"]),
    );
    expect((await okTool(asAgent, "whoami")).user?.id).toBe(agent.id);
    expect(arr((await okTool(asAgent, "list_categories")).categories)).toHaveLength(10);

    // The real document parser (text documents need no OCR).
    const brochure =
      "Cloud cost review\n\nWe review your cloud bill and cut it. Price: 3200 EUR. sales@agent.example";
    const draft = await okTool(asAgent, "draft_listing_from_document", {
      filename: "brochure.txt",
      content_base64: Buffer.from(brochure).toString("base64"),
    });
    // What a document says is another's text too: it comes back under untrusted_ names.
    expect(draft.untrusted_title).toEqual(expect.any(String));
    expect(draft).not.toHaveProperty("title");
    await failedTool(
      asAgent,
      "draft_listing_from_document",
      { filename: "x.bin", content_base64: "AAAA" },
      "unsupported_document",
    );

    const publish = {
      title: str(draft.untrusted_title),
      description: str(draft.untrusted_description),
      category: str(draft.category),
      idempotency_key: `publish-${agent.id}`,
    };
    const first = await callTool(asAgent, "create_listing", publish);
    const retried = await callTool(asAgent, "create_listing", publish);
    expect(retried.body).toEqual(first.body);
    expect(retried.meta).toEqual({ idempotent_replayed: true });
    const mine = await okTool(asAgent, "search_listings", { user_id: agent.id, status: "all" });
    expect(mine.count).toBe(1);
    await failedTool(asAgent, "create_listing", { ...publish, title: "Another" }, "idempotency_key_reused");
    await failedTool(asAgent, "create_listing", { title: "No category", description: "x" }, "invalid_input");

    const theirs = (await d.api.post("/api/listings", { apiKey: author.key, body: LISTING })).body.listing;
    const found = await okTool(asAgent, "search_listings", { search: "Data audit", user_id: author.id });
    expect(arr(found.items)[0]).toMatchObject({
      id: theirs?.id,
      untrusted_description: "Two weeks of work.",
    });
    // q reads the description, stemmed: "week" finds "Two weeks of work."; with facets per category.
    const byWords = await okTool(asAgent, "search_listings", {
      q: "week work",
      user_id: author.id,
      facets: "category",
    });
    expect(arr(byWords.items).map((item) => item.id)).toEqual([theirs?.id]);
    expect(byWords.facets_capped).toBe(false);
    await failedTool(asAgent, "search_listings", { sort: "cheapest" }, "invalid_input");
    expect((await okTool(asAgent, "get_listing", { id: str(theirs?.id) })).listing?.id).toBe(theirs?.id);
    await failedTool(asAgent, "get_listing", { id: UNKNOWN }, "listing_not_found");

    const message = { listing_id: str(theirs?.id), receiver_id: author.id, content: "Free in March?" };
    const sent = await okTool(asAgent, "send_message", { ...message, idempotency_key: `msg-${agent.id}` });
    await okTool(asAgent, "send_message", { ...message, idempotency_key: `msg-${agent.id}` });
    const inbox = await d.api.get("/api/messages", { apiKey: author.key });
    expect(arr(inbox.body.messages).map((m) => m.id)).toEqual([sent.data?.id]);
    expect(arr(inbox.body.messages)[0]?.is_agent).toBe(true);
    await failedTool(asAgent, "send_message", { ...message, listing_id: UNKNOWN }, "listing_not_found");
    const sentBox = await okTool(asAgent, "list_messages", { type: "sent" });
    expect(arr(sentBox.messages)[0]).toMatchObject({
      id: sent.data?.id,
      untrusted_content: "Free in March?",
    });

    const listingId = str(arr(mine.items)[0]?.id);
    expect(
      (await okTool(asAgent, "update_listing", { id: listingId, status: "paused" })).listing?.status,
    ).toBe("paused");
    await failedTool(asAgent, "update_listing", { id: listingId, status: "sold" }, "invalid_input");
    expect((await okTool(asAgent, "get_listing_limit", { user_id: agent.id })).active_listings_count).toBe(0);
    await failedTool(asAgent, "get_listing_limit", { user_id: UNKNOWN }, "user_not_found");
    expect(arr((await okTool(asAgent, "list_api_keys")).keys).map((k) => k.id)).toEqual([agent.keyId]);
    expect(await okTool(asAgent, "delete_listing", { id: listingId })).toEqual({ success: true });
    await failedTool(asAgent, "delete_listing", { id: listingId }, "listing_not_found");
  });

  it("user A cannot update, delete or read B's objects: the same answer as over REST", async () => {
    const [a, b] = [await d.account("a"), await d.account("b")];
    const listing = (await d.api.post("/api/listings", { apiKey: b.key, body: LISTING })).body.listing;
    const id = str(listing?.id);
    const asA = await as(a);
    const rest = {
      update: await d.api.patch(`/api/listings/${id}`, { apiKey: a.key, body: { title: "Mine" } }),
      delete: await d.api.delete(`/api/listings/${id}`, { apiKey: a.key }),
      read: await d.api.get(`/api/messages?user_id=${b.id}`, { apiKey: a.key }),
      keys: await d.api.delete(`/api/keys/${b.keyId}`, { apiKey: a.key }),
    };
    expect([rest.update.status, rest.delete.status, rest.read.status]).toEqual([403, 403, 403]);
    expect((await callTool(asA, "update_listing", { id, title: "Mine" })).body).toEqual(rest.update.body);
    expect((await callTool(asA, "delete_listing", { id })).body).toEqual(rest.delete.body);
    expect((await callTool(asA, "list_messages", { user_id: b.id })).body).toEqual(rest.read.body);
    expect((await d.api.get(`/api/listings/${id}`)).body.listing?.title).toBe("Data audit");
  });

  it("serves 20 concurrent tool calls, and two clients one after the other", async () => {
    const [author, agent] = [await d.account("busy-author"), await d.account("busy-agent")];
    const listing = (await d.api.post("/api/listings", { apiKey: author.key, body: LISTING })).body.listing;
    const asAgent = await as(agent);
    const calls = Array.from({ length: 20 }, (_, i) =>
      i % 2 === 0
        ? okTool(asAgent, "send_message", {
            listing_id: str(listing?.id),
            receiver_id: author.id,
            content: `Note ${i}`,
          })
        : okTool(asAgent, "get_listing", { id: str(listing?.id) }),
    );
    const answers = await Promise.all(calls);
    expect(answers.filter((answer) => answer.data !== undefined)).toHaveLength(10);
    const inbox = await d.api.get("/api/messages?limit=100", { apiKey: author.key });
    expect(arr(inbox.body.messages)).toHaveLength(10);

    for (const account of [author, agent]) {
      const client = await connectHttp(d.url, { Authorization: `Bearer ${account.token}` });
      expect((await okTool(client, "whoami")).user?.id).toBe(account.id);
      await client.close();
    }
  });

  it("without credentials lists public reads only; a bad credential is 401 with WWW-Authenticate", async () => {
    const anonymous = await as(null);
    expect(await writeTools(anonymous)).toEqual([]);
    expect((await anonymous.listTools()).tools.map((t) => t.name)).toEqual([
      "whoami",
      "search_listings",
      "get_listing",
      "list_categories",
      "get_listing_limit",
    ]);
    await failedTool(anonymous, "create_listing", LISTING, "unauthenticated");

    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    };
    const headers = { accept: "application/json, text/event-stream" };
    const bad = await d.api.post("/mcp", { body: initialize, apiKey: "psm_invalid", headers });
    expectStatus(bad, 401);
    const challenge = bad.headers.get("www-authenticate") ?? "";
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1] ?? "";
    expect(metadataUrl).toBe(`${d.url}/.well-known/oauth-protected-resource/mcp`);
    const metadata = await fetch(metadataUrl);
    expect(await metadata.json()).toMatchObject({ resource: `${d.url}/mcp` });
    await expect(connectHttp(d.url, { "X-API-Key": "psm_invalid" })).rejects.toMatchObject({ code: 401 });
    const llms = await fetch(`${d.url}/llms.txt`);
    expect([llms.status, (await llms.text()).includes(`${d.url}/mcp`)]).toEqual([200, true]);

    expectStatus(
      await d.api.post("/mcp", { body: initialize, headers: { ...headers, origin: "https://evil.example" } }),
      403,
    );
    expectStatus(
      await d.api.post("/mcp", { body: initialize, headers: { ...headers, origin: APP_ORIGIN } }),
      200,
    );
    expectStatus(await d.api.post("/mcp", { body: initialize, headers: { ...headers, origin: d.url } }), 200);
  });

  it("a read-only session lists zero tools that write; admin tools only for an admin's JWT", async () => {
    const member = await d.account("reader");
    expect(await writeTools(await as(member, "?read_only=true"))).toEqual([]);
    expect(await writeTools(await as(d.admin, "?read_only=true"))).toEqual([]);
    const adminNames = async (headers: Record<string, string>) => {
      const client = await connectHttp(d.url, headers);
      clients.push(client);
      return (await client.listTools()).tools.map((t) => t.name).filter((name) => name.startsWith("admin_"));
    };
    expect(await adminNames({ Authorization: `Bearer ${d.admin.token}` })).toHaveLength(4);
    expect(await adminNames({ "X-API-Key": d.admin.key })).toEqual([]);
    expect(await adminNames({ Authorization: `Bearer ${member.token}` })).toEqual([]);
    const asAdmin = await connectHttp(d.url, { Authorization: `Bearer ${d.admin.token}` });
    clients.push(asAdmin);
    expect(arr((await okTool(asAdmin, "admin_list_users", { limit: 100 })).users).map((u) => u.id)).toContain(
      member.id,
    );
    await failedTool(asAdmin, "admin_delete_user", { user_id: d.admin.id }, "cannot_delete_admin");
  });

  it("psm-mcp serves the key's user over stdio on the server's storage; MCP_READ_ONLY; a bad key stops it", async () => {
    const [agent, reader] = [await d.account("stdio"), await d.account("stdio-reader")];
    // Three processes side by side: each start is mostly module loading.
    const [writer, readOnly, refused] = await Promise.allSettled([
      connectStdio({ ...d.storageEnv, PSM_API_KEY: agent.key }),
      connectStdio({ ...d.storageEnv, PSM_API_KEY: reader.key, MCP_READ_ONLY: "true" }),
      connectStdio({ ...d.storageEnv, PSM_API_KEY: "psm_invalid" }),
    ]);
    expect(refused.status).toBe("rejected");
    if (writer.status !== "fulfilled" || readOnly.status !== "fulfilled")
      throw new Error("psm-mcp did not start");
    const { client } = writer.value;
    clients.push(client, readOnly.value.client);
    expect(await writeTools(readOnly.value.client)).toEqual([]);
    expect((await okTool(client, "whoami")).user?.id).toBe(agent.id);
    const created = await okTool(client, "create_listing", LISTING);
    expect((await d.api.get(`/api/listings/${str(created.listing?.id)}`)).body.listing?.user_id).toBe(
      agent.id,
    );
    // The key is checked again on every call, as over HTTP.
    expectStatus(await d.api.delete(`/api/keys/${agent.keyId}`, { token: agent.token }), 200);
    await failedTool(client, "whoami", {}, "api_key_revoked");
  });
});

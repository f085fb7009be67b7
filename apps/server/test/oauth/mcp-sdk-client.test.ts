import { auth } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, expect, it } from "vitest";
import { reportSkippedPostgres } from "../support/backends.js";
import { checkPage, inNewTab, type Tab } from "../support/browser.js";
import {
  MemoryOAuthProvider,
  startCallbackReceiver,
  startMetadataHost,
  TEST_CA,
} from "../support/oauth-provider.js";
import { fill, heading, notice, press } from "../support/pages.js";
import { useWebSuite } from "../support/web-suite.js";
import { PASSWORD } from "../support/world.js";

// The MCP SDK's own client and OAuth support against the compiled server, by its URL alone: it
// discovers the authorization server from /mcp's metadata, registers (dynamically, or by a Client
// ID Metadata Document served over https on loopback, which the server is told to trust), sends
// the person to the consent page, which Chromium answers, then calls tools, refreshes after a
// 401, and is shut out by a revocation and by a disconnection on the account page.

reportSkippedPostgres("the MCP SDK's OAuth client");

const suite = useWebSuite({ CLIENT_METADATA_ALLOW_PRIVATE: "true", NODE_EXTRA_CA_CERTS: TEST_CA });

let host: Awaited<ReturnType<typeof startMetadataHost>> | undefined;
let callbacks: Awaited<ReturnType<typeof startCallbackReceiver>> | undefined;
beforeAll(async () => {
  callbacks = await startCallbackReceiver();
  // Registered without a port: a loopback redirect may come back on any (RFC 8252 section 7.3).
  host = await startMetadataHost((url) => ({
    client_id: url,
    client_name: "Metadata document client",
    redirect_uris: ["http://127.0.0.1/callback"],
    token_endpoint_auth_method: "none",
  }));
});
afterAll(async () => {
  await host?.close();
  await callbacks?.close();
});

/** The loopback URL the clients are sent back to. */
const redirect = () => callbacks?.url ?? "";

/**
 * Opens the authorization URL the SDK chose in Chromium as a person who is signed out: logs in,
 * is sent back to the consent page (checked, axe included), unticks `untick`, approves. Answers the
 * code the browser brought back to the client's loopback receiver.
 */
async function consent(
  tab: Tab,
  url: URL,
  email: string,
  heading_: string,
  untick: string[],
): Promise<string> {
  const { page } = tab;
  await page.goto(url.href);
  await fill(page, "Email", email);
  await fill(page, "Password", PASSWORD);
  await press(page, "button", "Log in");
  expect(await heading(page)).toBe(heading_);
  expect(await page.getByText(new URL(redirect()).host).count()).toBeGreaterThan(0);
  await checkPage(tab);
  for (const scope of untick) await page.getByLabel(scope, { exact: true }).uncheck();
  await press(page, "button", "Approve");
  expect(`${new URL(page.url()).origin}${new URL(page.url()).pathname}`).toBe(redirect());
  const callback = callbacks?.received.at(-1);
  expect(callback?.searchParams.get("iss")).toBe(new URL(url).origin);
  return callback?.searchParams.get("code") ?? "";
}

/** The SDK's client on /mcp with `provider`, connected. */
async function connected(mcp: URL, provider: MemoryOAuthProvider): Promise<Client> {
  const client = new Client({ name: "psm-oauth-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(mcp, { authProvider: provider }));
  return client;
}

const whoami = async (client: Client) =>
  JSON.stringify((await client.callTool({ name: "whoami", arguments: {} })).content);

suite.describeSites((backend, site) => {
  it("registers dynamically, is approved in Chromium, calls tools, refreshes after a 401, and is revoked", async () => {
    const base = site().url;
    const user = await site().account(`sdk-dcr-${backend}`);
    const mcp = new URL(`${base}/mcp`);
    const provider = new MemoryOAuthProvider(redirect());
    expect(await auth(provider, { serverUrl: mcp })).toBe("REDIRECT");
    expect(provider.client?.client_id).toMatch(/^oc_/);
    let code = "";
    await inNewTab(suite.browser(), base, true, async (tab) => {
      const url = provider.authorizationUrl ?? new URL(base);
      code = await consent(tab, url, user.email, "Connect MCP SDK test client", ["messages:write"]);
    });
    expect(await auth(provider, { serverUrl: mcp, authorizationCode: code })).toBe("AUTHORIZED");
    const client = await connected(mcp, provider);
    const tools = (await client.listTools()).tools.map((tool) => tool.name);
    expect(tools).toEqual(expect.arrayContaining(["create_listing", "list_messages", "whoami"]));
    expect(tools).not.toContain("send_message");
    expect(await whoami(client)).toContain(user.email);

    // The access token goes stale: the SDK meets a 401, refreshes (the refresh token rotates), retries.
    const before = provider.stored;
    provider.stored = before && { ...before, access_token: "stale" };
    expect(await whoami(client)).toContain(user.email);
    expect(provider.stored?.refresh_token).not.toBe(before?.refresh_token);

    // Revocation (RFC 7009) of the refresh token ends the grant: the next call cannot get in.
    const revoked = await fetch(`${base}/oauth/revoke`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        token: provider.stored?.refresh_token ?? "",
        client_id: provider.client?.client_id ?? "",
      }),
    });
    expect(revoked.status).toBe(200);
    await expect(whoami(client)).rejects.toThrow();
    await client.close();
  });

  it("identifies by a Client ID Metadata Document, and is disconnected from the account page", async () => {
    const base = site().url;
    const user = await site().account(`sdk-cimd-${backend}`);
    const mcp = new URL(`${base}/mcp`);
    const documentUrl = `${host?.origin}/clients/${backend}.json`;
    const provider = new MemoryOAuthProvider(redirect(), documentUrl);
    expect(await auth(provider, { serverUrl: mcp })).toBe("REDIRECT");
    expect(provider.client?.client_id).toBe(documentUrl);
    await inNewTab(suite.browser(), base, true, async (tab) => {
      const url = provider.authorizationUrl ?? new URL(base);
      const code = await consent(tab, url, user.email, "Connect Metadata document client", []);
      expect(await auth(provider, { serverUrl: mcp, authorizationCode: code })).toBe("AUTHORIZED");
      const client = await connected(mcp, provider);
      expect(await whoami(client)).toContain(user.email);

      // The account page lists it; disconnecting it shuts it out at once.
      const { page } = tab;
      await page.goto("/account/apps");
      expect(await heading(page)).toBe("Connected applications");
      await checkPage(tab);
      await press(page, "button", "Disconnect Metadata document client");
      expect(await notice(page)).toContain("disconnected");
      expect(await page.getByText("No application is connected.").count()).toBe(1);
      await expect(whoami(client)).rejects.toThrow();
      await client.close();
    });
  });
});

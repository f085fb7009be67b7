import * as oauth from "oauth4webapi";
import { describe, expect, test } from "vitest";
import { signUp } from "../support/accounts.js";
import { NAMED_BACKENDS, reportSkippedPostgres } from "../support/backends.js";
import { useHarness } from "../support/harness.js";
import { call, expectStatus } from "../support/http.js";
import { mcpInitialize } from "../support/mcp-initialize.js";
import { answerConsent } from "../support/oauth-consent.js";
import { logInOnPages } from "../support/web-session.js";

// OAuth 2.1 end to end with an independent client library (oauth4webapi) against the compiled
// server on loopback: discovery, dynamic registration, the consent page answered as a browser
// without JavaScript, PKCE, iss checking, tokens on /mcp, refresh, reuse detection, revocation.

reportSkippedPostgres("OAuth with oauth4webapi");

const insecure = { [oauth.allowInsecureRequests]: true } as const;
const REDIRECT = "http://127.0.0.1:8976/callback";
const INITIALIZE = mcpInitialize("oauth4webapi");

/** Discovery and registration of a public client, as an MCP client does from the server's URL. */
async function clientOf(base: string) {
  const issuer = new URL(base);
  const as = await oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { ...insecure, algorithm: "oauth2" }),
  );
  const registered = await oauth.processDynamicClientRegistrationResponse(
    await oauth.dynamicClientRegistrationRequest(
      as,
      { client_name: "oauth4webapi test", redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" },
      insecure,
    ),
  );
  const client: oauth.Client = { client_id: registered.client_id, token_endpoint_auth_method: "none" };
  return { as, client };
}

/** The authorization URL of a fresh request, with its PKCE verifier and state. */
async function request(
  as: oauth.AuthorizationServer,
  client: oauth.Client,
  extra: Record<string, string> = {},
  resources = [`${as.issuer}/mcp`],
) {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint ?? "");
  url.search = new URLSearchParams({
    response_type: "code",
    client_id: client.client_id,
    redirect_uri: REDIRECT,
    scope: "listings:write messages:read",
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    ...extra,
  }).toString();
  for (const resource of resources) url.searchParams.append("resource", resource);
  return { url, verifier, state };
}

/** What an OAuth call refused with: its `error`, or "accepted". */
async function refusal(work: Promise<unknown>): Promise<string> {
  return work.then(
    () => "accepted",
    (error: unknown) => (error instanceof oauth.ResponseBodyError ? error.error : String(error)),
  );
}

describe.each(NAMED_BACKENDS)("OAuth 2.1 with oauth4webapi on $name", ({ backend }) => {
  const h = useHarness();

  test("code flow with PKCE, resource-bound tokens, refresh rotation with reuse detection, revocation", {
    timeout: 120_000,
  }, async () => {
    const database = await h.database(backend, "psm_oauth");
    const server = await h.selfLinkedServer({ dataDir: await h.dataDir(), env: { ...database.env } });
    const base = server.url;
    await signUp(base, "owner@example.com", "owner-password");
    const session = await logInOnPages(base, "owner@example.com", "owner-password");
    const { as, client } = await clientOf(base);
    expect(as.code_challenge_methods_supported).toEqual(["S256"]);
    expect(as.authorization_response_iss_parameter_supported).toBe(true);

    const mcp = (token: string) =>
      call(base, "POST", "/mcp", {
        body: INITIALIZE,
        headers: { authorization: `Bearer ${token}`, accept: "application/json, text/event-stream" },
      });
    const tokensFor = async (scopes?: string[], resources?: string[]) => {
      const { url, verifier, state } = await request(as, client, {}, resources);
      const callback = await answerConsent(base, session, url.href, "approve", scopes);
      // Checks `iss` (RFC 9207) and `state`.
      const params = oauth.validateAuthResponse(as, client, callback, state);
      const exchange = () =>
        oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT, verifier, insecure);
      return { tokens: await oauth.processAuthorizationCodeResponse(as, client, await exchange()), exchange };
    };

    // A token for /mcp with the scopes ticked: accepted there, refused on /api (RFC 8707).
    const first = await tokensFor(["messages:read"]);
    expect(first.tokens.scope).toBe("messages:read");
    expect(first.tokens.expires_in).toBe(3600);
    expectStatus(await mcp(first.tokens.access_token), 200);
    const me = await call(base, "GET", "/api/auth/me", { token: first.tokens.access_token });
    expectStatus(me, 401);

    // The same code again: refused, and the tokens of its first use are revoked.
    expect(
      await refusal(first.exchange().then((r) => oauth.processAuthorizationCodeResponse(as, client, r))),
    ).toBe("invalid_grant");
    expectStatus(await mcp(first.tokens.access_token), 401);

    // A token asked for both resources works on the API, within its scopes.
    const both = await tokensFor(undefined, [`${base}/mcp`, `${base}/api`]);
    const limited = await call(base, "GET", "/api/auth/me", { token: both.tokens.access_token });
    expectStatus(limited, 200);

    // Refresh rotates; the replaced token presented again revokes the grant.
    const second = await tokensFor();
    const refresh = (token: string) =>
      oauth
        .refreshTokenGrantRequest(as, client, oauth.None(), token, insecure)
        .then((r) => oauth.processRefreshTokenResponse(as, client, r));
    const rotated = await refresh(second.tokens.refresh_token ?? "");
    expect(rotated.refresh_token).not.toBe(second.tokens.refresh_token);
    expectStatus(await mcp(rotated.access_token), 200);
    expect(await refusal(refresh(second.tokens.refresh_token ?? ""))).toBe("invalid_grant");
    expect(await refusal(refresh(rotated.refresh_token ?? ""))).toBe("invalid_grant");
    expectStatus(await mcp(rotated.access_token), 401);

    // Revocation (RFC 7009) ends the grant of an access token at once.
    const third = await tokensFor();
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, client, oauth.None(), third.tokens.access_token, insecure),
    );
    expectStatus(await mcp(third.tokens.access_token), 401);
    expect(await refusal(refresh(third.tokens.refresh_token ?? ""))).toBe("invalid_grant");
  });
});

// The refusals depend on no backend: one server on SQLite.
describe("OAuth 2.1 refusals with oauth4webapi", () => {
  const h = useHarness();

  test("refuses plain PKCE, no challenge, a foreign resource, a wrong redirect, a loopback metadata document, hostile and excess registrations", {
    timeout: 180_000,
  }, async () => {
    // Rate limits on, as in production: registration counts against the sign-up quota.
    const server = await h.selfLinkedServer({ dataDir: await h.dataDir(), env: { RATE_LIMIT: "on" } });
    const base = server.url;
    await signUp(base, "owner@example.com", "owner-password");
    const session = await logInOnPages(base, "owner@example.com", "owner-password");
    const { as, client } = await clientOf(base);
    const open = (url: URL) =>
      fetch(url, { redirect: "manual", headers: { accept: "text/html", cookie: session.cookie } });

    const refused: Record<string, string>[] = [{ code_challenge_method: "plain" }, { code_challenge: "" }];
    for (const extra of refused) {
      const { url, state } = await request(as, client, extra);
      const answer = await open(url);
      expect(answer.status).toBe(303);
      const callback = new URL(answer.headers.get("location") ?? "");
      expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT);
      expect(() => oauth.validateAuthResponse(as, client, callback, state)).toThrow(
        oauth.AuthorizationResponseError,
      );
      expect([callback.searchParams.get("error"), callback.searchParams.get("iss")]).toEqual([
        "invalid_request",
        base,
      ]);
    }
    const wrong = await request(as, client, { redirect_uri: "http://127.0.0.1:8976/elsewhere" });
    const answer = await open(wrong.url);
    expect([answer.status, answer.headers.get("location")]).toEqual([400, null]);
    const foreign = await request(as, client, {}, ["https://elsewhere.example/mcp"]);
    const target = new URL((await open(foreign.url)).headers.get("location") ?? "");
    expect(target.searchParams.get("error")).toBe("invalid_target");

    // A Client ID Metadata Document on loopback is refused (no CLIENT_METADATA_ALLOW_PRIVATE here):
    // the person is told, nothing is redirected.
    const local = await request(as, { client_id: "https://127.0.0.1:9/client.json" });
    const refusedDocument = await open(local.url);
    expect([refusedDocument.status, refusedDocument.headers.get("location")]).toEqual([400, null]);
    expect(await refusedDocument.text()).toContain("loopback");

    // Registration is bounded: a javascript: redirect is refused, a body over 16 KiB too, and the
    // clients one address registers count as its sign-ups (10 an hour; refusals are not counted):
    // after the owner's account and the first client, 8 more.
    const register = (body: string) =>
      fetch(`${base}/oauth/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
    const hostile = await register(JSON.stringify({ redirect_uris: ["javascript:alert(1)"] }));
    expect([hostile.status, (await hostile.json()).error]).toEqual([400, "invalid_redirect_uri"]);
    expect(
      (await register(JSON.stringify({ redirect_uris: [REDIRECT], padding: "x".repeat(20_000) }))).status,
    ).toBe(413);
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++)
      statuses.push((await register(JSON.stringify({ redirect_uris: [REDIRECT] }))).status);
    expect(statuses).toEqual([...Array(8).fill(201), 429, 429]);

    // A denial goes back to the client as access_denied.
    const denied = await request(as, client);
    const callback = await answerConsent(base, session, denied.url.href, "deny");
    expect(callback.searchParams.get("error")).toBe("access_denied");
  });
});

describe("OAUTH=off", () => {
  const h = useHarness();

  test("serves no authorization server, and /mcp's metadata names none", { timeout: 180_000 }, async () => {
    const server = await h.selfLinkedServer({ dataDir: await h.dataDir(), env: { OAUTH: "off" } });
    const base = server.url;
    for (const path of ["/.well-known/oauth-authorization-server", "/oauth/authorize?client_id=x"]) {
      expect((await fetch(`${base}${path}`)).status, path).toBe(404);
    }
    expect((await fetch(`${base}/oauth/token`, { method: "POST" })).status).toBe(404);
    const metadata = await (await fetch(`${base}/.well-known/oauth-protected-resource/mcp`)).json();
    expect(metadata).toMatchObject({ resource: `${base}/mcp` });
    expect(metadata).not.toHaveProperty("authorization_servers");
  });
});

import { sha256 } from "@noble/hashes/sha2.js";
import { utf8ToBytes } from "@noble/hashes/utils.js";
import { describe, expect, it } from "vitest";
import { ACCESS_TOKEN_TTL_SECONDS } from "../../domain/oauth.js";
import { isOAuthError, type OAuthErrorCode } from "../../domain/oauth-error.js";
import { toBase64Url } from "../../support/crypto.js";
import { createJwtAccessTokenService } from "../../support/jwt-access-tokens.js";
import { createTestClock } from "../../testing/fakes/clock.js";
import { createTestDeps } from "../../testing/fakes/deps.js";
import { expectCode, setupWith } from "../../testing/use-case-kit.js";
import type { AuthorizationParams } from "./authorize.js";

const PUBLIC_URL = "https://market.example";
const MCP = `${PUBLIC_URL}/mcp`;
const API = `${PUBLIC_URL}/api`;
const VERIFIER = "a-verifier-of-at-least-forty-three-characters-long";
const CHALLENGE = toBase64Url(sha256(utf8ToBytes(VERIFIER)));
const LISTING = { title: "Audit", description: "Two weeks", category: "cybersecurity" } as const;

async function world() {
  const clock = createTestClock();
  const deps = createTestDeps({
    clock,
    accessTokens: createJwtAccessTokenService(new Uint8Array(32).fill(7), PUBLIC_URL, clock),
    settings: { publicUrl: PUBLIC_URL, oauth: { resources: [MCP, API] } },
  });
  const kit = setupWith(deps);
  const member = await kit.signUpAndLogIn("member@example.com");
  const client = await kit.market.oauth.registerClient({
    client_name: "Agent",
    redirect_uris: ["http://127.0.0.1/callback", "https://agent.example/cb"],
  });
  const params = (overrides: Partial<AuthorizationParams> = {}): AuthorizationParams => ({
    responseType: "code",
    clientId: client.id,
    redirectUri: "https://agent.example/cb",
    codeChallenge: CHALLENGE,
    codeChallengeMethod: "S256",
    scope: "listings:write messages:read",
    resources: [MCP],
    state: "s1",
    ...overrides,
  });
  /** Approves `params` as the member with every scope asked, answering the code. */
  const approve = async (overrides: Partial<AuthorizationParams> = {}, chosen?: string[]) => {
    const pending = await kit.market.oauth.checkAuthorization(params(overrides));
    return kit.market.oauth.approve(member.actor, pending, chosen ?? pending.scopes);
  };
  const exchange = (code: string, overrides = {}) =>
    kit.market.oauth.exchangeCode({ clientId: client.id, code, codeVerifier: VERIFIER, ...overrides });
  const refresh = (token: string) => kit.market.oauth.refresh({ clientId: client.id, refreshToken: token });
  /** Both tokens of a set no longer work: the access token is refused, and so is the refresh token. */
  const expectShutOut = async (tokens: { accessToken: string; refreshToken: string }) => {
    await expectCode(
      kit.market.auth.authenticate({ bearer: tokens.accessToken, resource: MCP }),
      "unauthenticated",
    );
    await expectOAuth(refresh(tokens.refreshToken), "invalid_grant");
  };
  return { ...kit, clock, member, client, params, approve, exchange, refresh, expectShutOut };
}

async function expectOAuth(promise: Promise<unknown>, code: OAuthErrorCode, redirectable?: boolean) {
  const outcome = await promise.then(
    () => "resolved",
    (error: unknown) =>
      isOAuthError(error) ? { code: error.code, redirectable: error.redirectable } : error,
  );
  expect(outcome).toMatchObject(redirectable === undefined ? { code } : { code, redirectable });
}

describe("OAuth authorization", () => {
  it("refuses plain PKCE, a missing challenge and an unknown scope by redirect; a wrong redirect or client to the user", async () => {
    const w = await world();
    const check = (overrides: Partial<AuthorizationParams>) =>
      w.market.oauth.checkAuthorization(w.params(overrides));
    await expectOAuth(check({ codeChallengeMethod: "plain" }), "invalid_request", true);
    await expectOAuth(check({ codeChallenge: undefined }), "invalid_request", true);
    await expectOAuth(check({ scope: "listings:write everything" }), "invalid_scope", true);
    await expectOAuth(check({ resources: ["https://elsewhere.example/mcp"] }), "invalid_target", true);
    await expectOAuth(check({ responseType: "token" }), "unsupported_response_type", true);
    await expectOAuth(check({ redirectUri: "https://agent.example/cb/other" }), "invalid_request", false);
    await expectOAuth(check({ redirectUri: "https://127.0.0.1:8000/callback" }), "invalid_request", false);
    await expectOAuth(check({ clientId: "oc_AAAAAAAAAAAAAAAAAAAAAA" }), "invalid_client", false);
  });

  it("a loopback redirect may differ in its port only (RFC 8252)", async () => {
    const w = await world();
    const pending = await w.market.oauth.checkAuthorization(
      w.params({ redirectUri: "http://127.0.0.1:49152/callback" }),
    );
    expect(pending.redirectUri).toBe("http://127.0.0.1:49152/callback");
    await expectOAuth(
      w.market.oauth.checkAuthorization(w.params({ redirectUri: "http://127.0.0.1:49152/other" })),
      "invalid_request",
    );
  });

  it("registration refuses javascript: and plain-http redirect URIs", async () => {
    const w = await world();
    for (const uri of ["javascript:alert(1)", "http://agent.example/cb", "https://agent.example/cb#frag"]) {
      await expectOAuth(w.market.oauth.registerClient({ redirect_uris: [uri] }), "invalid_redirect_uri");
    }
    await expectOAuth(w.market.oauth.registerClient({ redirect_uris: [] }), "invalid_redirect_uri");
  });
});

describe("OAuth tokens", () => {
  it("a code becomes tokens carrying the approved scopes, usable only on their resource", async () => {
    const w = await world();
    const tokens = await w.exchange(await w.approve({}, ["listings:write"]));
    expect(tokens).toMatchObject({ expiresIn: ACCESS_TOKEN_TTL_SECONDS, scopes: ["listings:write"] });
    const actor = await w.market.auth.authenticate({ bearer: tokens.accessToken, resource: MCP });
    expect(actor).toMatchObject({ kind: "user", via: "oauth", scopes: ["listings:write"] });
    await expect(w.market.listings.create(actor, LISTING)).resolves.toHaveProperty("id");
    await expectCode(w.market.messages.list(actor, {}), "insufficient_scope");
    await expectCode(
      w.market.auth.authenticate({ bearer: tokens.accessToken, resource: API }),
      "unauthenticated",
    );
    // An OAuth token is not a password sign-in: it cannot approve another client.
    const pending = await w.market.oauth.checkAuthorization(w.params());
    await expectCode(w.market.oauth.approve(actor, pending, pending.scopes), "unauthenticated");
  });

  it("the PKCE verifier, client and redirect URI must match the code's", async () => {
    const w = await world();
    const code = await w.approve();
    await expectOAuth(w.exchange(code, { codeVerifier: `${VERIFIER}x` }), "invalid_grant");
    await expectOAuth(w.exchange(code, { codeVerifier: CHALLENGE }), "invalid_grant");
    await expectOAuth(w.exchange(code, { redirectUri: "http://127.0.0.1/callback" }), "invalid_grant");
    await expectOAuth(w.exchange(code, { clientId: "oc_AAAAAAAAAAAAAAAAAAAAAA" }), "invalid_grant");
    await expect(w.exchange(code)).resolves.toHaveProperty("accessToken");
  });

  it("a code used twice is refused and the tokens of its first use stop working", async () => {
    const w = await world();
    const code = await w.approve();
    const first = await w.exchange(code);
    await expectOAuth(w.exchange(code), "invalid_grant");
    await w.expectShutOut(first);
  });

  it("refresh rotates; a refresh token used twice revokes the grant", async () => {
    const w = await world();
    const first = await w.exchange(await w.approve());
    const { refresh } = w;
    const second = await refresh(first.refreshToken);
    expect(second.refreshToken).not.toBe(first.refreshToken);
    await expect(
      w.market.auth.authenticate({ bearer: second.accessToken, resource: MCP }),
    ).resolves.toMatchObject({
      via: "oauth",
    });
    await expectOAuth(refresh(first.refreshToken), "invalid_grant");
    await w.expectShutOut(second);
  });

  it("an access token expires after an hour; a password change ends the grant", async () => {
    const w = await world();
    const tokens = await w.exchange(await w.approve());
    w.clock.advance(ACCESS_TOKEN_TTL_SECONDS * 1000);
    await expectCode(
      w.market.auth.authenticate({ bearer: tokens.accessToken, resource: MCP }),
      "unauthenticated",
    );
    const renewed = await w.refresh(tokens.refreshToken);
    await w.market.auth.changePassword(w.member.actor, {
      currentPassword: "secret-password",
      newPassword: "another-pass",
    });
    await w.expectShutOut(renewed);
  });

  it("revocation of either token ends the grant; the account page lists and disconnects apps", async () => {
    const w = await world();
    const a = await w.exchange(await w.approve());
    const b = await w.exchange(await w.approve());
    const listed = await w.market.oauth.listConnected(w.member.actor);
    expect(listed.map((g) => g.clientName)).toEqual(["Agent", "Agent"]);
    await w.market.oauth.revokeToken({ token: a.accessToken, clientId: w.client.id });
    await expectCode(w.market.auth.authenticate({ bearer: a.accessToken, resource: MCP }), "unauthenticated");
    const [left] = await w.market.oauth.listConnected(w.member.actor);
    if (!left) throw new Error("one app should be left");
    await w.market.oauth.disconnect(w.member.actor, left.id);
    await expectCode(w.market.auth.authenticate({ bearer: b.accessToken, resource: MCP }), "unauthenticated");
    await expectCode(w.market.oauth.disconnect(w.member.actor, left.id), "not_found");
    await w.market.oauth.revokeToken({ token: "never-issued" });
  });
});

import { createJwtAccessTokenService, createMarketplace } from "@psm/core";
import { createTestClock, createTestDeps } from "@psm/core/testing";
import { describe, expect, it } from "vitest";
import { createOAuthApp } from "./surface.js";

const PUBLIC_URL = "https://market.example";

function app() {
  const clock = createTestClock();
  const marketplace = createMarketplace(
    createTestDeps({
      clock,
      accessTokens: createJwtAccessTokenService(new Uint8Array(32).fill(1), PUBLIC_URL, clock),
      settings: { publicUrl: PUBLIC_URL, oauth: { resources: [`${PUBLIC_URL}/mcp`, `${PUBLIC_URL}/api`] } },
    }),
  );
  return createOAuthApp({
    marketplace,
    publicUrl: PUBLIC_URL,
    authorizePath: "/oauth/authorize",
    name: "Market",
    metadataDocuments: true,
  });
}

const form = (body: Record<string, string>, type = "application/x-www-form-urlencoded") => ({
  method: "POST",
  headers: { "content-type": type },
  body: new URLSearchParams(body).toString(),
});

describe("the OAuth wire", () => {
  it("publishes RFC 8414 metadata naming the endpoints, S256 only and iss in responses", async () => {
    const metadata = await (await app().request("/.well-known/oauth-authorization-server")).json();
    expect(metadata).toMatchObject({
      issuer: PUBLIC_URL,
      authorization_endpoint: `${PUBLIC_URL}/oauth/authorize`,
      token_endpoint: `${PUBLIC_URL}/oauth/token`,
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["none"],
      authorization_response_iss_parameter_supported: true,
    });
  });

  it("answers refusals as RFC 6749 errors, never stored", async () => {
    const a = app();
    const cases: [RequestInit, number, string][] = [
      [form({ grant_type: "password", username: "a", password: "b" }), 400, "unsupported_grant_type"],
      [form({ grant_type: "authorization_code", code: "nope", client_id: "oc_x" }), 400, "invalid_grant"],
      [form({ grant_type: "refresh_token", refresh_token: "nope" }), 400, "invalid_grant"],
      [form({ grant_type: "authorization_code" }, "application/json"), 400, "invalid_request"],
    ];
    for (const [init, status, error] of cases) {
      const answer = await a.request("/oauth/token", init);
      expect([answer.status, (await answer.json()).error, answer.headers.get("cache-control")]).toEqual([
        status,
        error,
        "no-store",
      ]);
    }
  });

  it("registers a public client and answers its metadata with 201", async () => {
    const answer = await app().request("/oauth/register", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_name: "Agent", redirect_uris: ["http://127.0.0.1/cb"] }),
    });
    expect(answer.status).toBe(201);
    expect(await answer.json()).toMatchObject({
      client_id: expect.stringMatching(/^oc_/),
      client_name: "Agent",
      token_endpoint_auth_method: "none",
    });
  });

  it("revocation answers 200 whatever the token", async () => {
    expect((await app().request("/oauth/revoke", form({ token: "never-issued" }))).status).toBe(200);
  });
});

import { readFileSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { REPO_ROOT } from "./paths.js";

/**
 * An MCP client's OAuth state, as the SDK asks a real client to keep it (in memory here): its
 * registration, its tokens, its PKCE verifier, and the authorization URL it would open in a browser.
 */
export class MemoryOAuthProvider implements OAuthClientProvider {
  readonly redirectUrl: string;
  readonly clientMetadataUrl: string | undefined;
  client: OAuthClientInformationMixed | undefined;
  stored: OAuthTokens | undefined;
  verifier = "";
  /** Where the SDK sent the user last (the consent page, by way of the log-in page). */
  authorizationUrl: URL | undefined;

  constructor(redirectUrl: string, clientMetadataUrl?: string) {
    this.redirectUrl = redirectUrl;
    this.clientMetadataUrl = clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "MCP SDK test client",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.stored;
  }
  saveTokens(tokens: OAuthTokens) {
    this.stored = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery") {
    if (scope === "all" || scope === "tokens") this.stored = undefined;
    if (scope === "all" || scope === "client") this.client = undefined;
  }
}

/** The self-signed certificate (CA:TRUE, for 127.0.0.1) the server under test is told to trust. */
export const TEST_CA = join(
  REPO_ROOT,
  "packages/adapter-webhooks/src/test-support/fixtures/self-signed-cert.pem",
);

/** An https host on 127.0.0.1 serving Client ID Metadata Documents: `document(url)` is the JSON at `url`. */
export async function startMetadataHost(
  document: (url: string) => object,
): Promise<{ origin: string; server: Server; close(): Promise<void> }> {
  const fixture = (name: string) =>
    readFileSync(join(REPO_ROOT, "packages/adapter-webhooks/src/test-support/fixtures", name));
  let origin = "";
  const server = createServer(
    { cert: fixture("self-signed-cert.pem"), key: fixture("self-signed-key.pem") },
    (req, res) => {
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify(document(`${origin}${req.url}`)));
    },
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, server, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** A native client's loopback redirect receiver (RFC 8252): records each callback and says "done". */
export async function startCallbackReceiver(): Promise<{
  url: string;
  received: URL[];
  close(): Promise<void>;
}> {
  const received: URL[] = [];
  const server = createHttpServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    // The browser asks for /favicon.ico too: only callbacks are kept.
    if (url.pathname === "/callback") received.push(url);
    res
      .writeHead(200, { "content-type": "text/html" })
      .end("<!doctype html><title>Done</title><h1>Done</h1>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
  return { url, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

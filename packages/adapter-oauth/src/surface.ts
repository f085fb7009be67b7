import { type Marketplace, OAuthError } from "@psm/core";
import {
  type HostVariables,
  MAX_JSON_DEPTH,
  type PrivatePath,
  parseJson,
  type RateClass,
  type RateLimitHooks,
  readBody,
  runLimited,
  type Surface,
} from "@psm/host";
import { type Context, Hono } from "hono";
import { apiResourceMetadata, authorizationServerMetadata, OAUTH_PATHS } from "./metadata.js";
import {
  describeApiResource,
  describeMetadata,
  describeRegister,
  describeRevoke,
  describeToken,
} from "./openapi.js";
import { MAX_OAUTH_BODY_BYTES, oauthErrorResponse, readOAuthForm, tokenResponse, WireError } from "./wire.js";

/** The options of createOAuthSurface. */
export interface OAuthSurfaceOptions {
  marketplace: Marketplace;
  /** The issuer: PUBLIC_URL, without a trailing slash. */
  publicUrl: string;
  /** The authorization endpoint's path: the consent page's (adapter-web's OAUTH_AUTHORIZE_PATH). */
  authorizePath: string;
  /** The server's name, for the API's resource metadata. */
  name: string;
  /** Whether clients may identify by a Client ID Metadata Document (the marketplace has a fetcher). */
  metadataDocuments: boolean;
  /** The host's rate limiters: metadata counts as a read, token and revocation as writes, registration as a sign-up. */
  rateLimit?: RateLimitHooks;
}

/**
 * The machine endpoints of the authorization server, as a surface for the host: RFC 8414
 * metadata, the token endpoint (authorization_code and refresh_token grants), RFC 7591 dynamic
 * registration of public clients, RFC 7009 revocation, and the API's RFC 9728 metadata. The rules
 * are core's (marketplace.oauth); this maps the RFCs' wire to them and back.
 */
export function createOAuthApp(options: OAuthSurfaceOptions): Hono<{ Variables: HostVariables }> {
  const { marketplace: m, publicUrl } = options;
  const app = new Hono<{ Variables: HostVariables }>();
  const metadata = authorizationServerMetadata(publicUrl, options.authorizePath, options.metadataDocuments);
  const apiMetadata = apiResourceMetadata(publicUrl, options.name);
  const limited = (c: Context, rate: RateClass, answer: () => Promise<Response>) =>
    runLimited(c, [rate], options.rateLimit, async () => {
      try {
        return await answer();
      } catch (error) {
        const refusal = oauthErrorResponse(c, error);
        if (refusal) return refusal;
        throw error;
      }
    });
  const cached = { "Cache-Control": "public, max-age=300" };

  app.get(OAUTH_PATHS.metadata, describeMetadata, (c) =>
    limited(c, "read", async () => c.json(metadata, 200, cached)),
  );
  app.get(OAUTH_PATHS.apiResource, describeApiResource, (c) =>
    limited(c, "read", async () => c.json(apiMetadata, 200, cached)),
  );

  app.post(OAUTH_PATHS.token, describeToken, (c) =>
    limited(c, "write", async () => {
      const form = await readOAuthForm(c);
      const clientId = form.get("client_id");
      const grantType = form.get("grant_type");
      if (grantType === "authorization_code") {
        const tokens = await m.oauth.exchangeCode({
          clientId,
          code: form.get("code"),
          redirectUri: form.get("redirect_uri"),
          codeVerifier: form.get("code_verifier"),
          resources: form.resources,
        });
        return tokenResponse(c, tokens);
      }
      if (grantType === "refresh_token") {
        const tokens = await m.oauth.refresh({
          clientId,
          refreshToken: form.get("refresh_token"),
          scope: form.get("scope"),
          resources: form.resources,
        });
        return tokenResponse(c, tokens);
      }
      throw new WireError("unsupported_grant_type", "grant_type must be authorization_code or refresh_token");
    }),
  );

  // A created client counts against the sign-up quota of its address: registrations are accounts of a kind.
  app.post(OAUTH_PATHS.register, describeRegister, (c) =>
    limited(c, "signup", async () => {
      const { bytes } = await readBody(c, { maxBytes: MAX_OAUTH_BODY_BYTES, deadlineMs: 10_000 });
      const body = parseJson(bytes, MAX_JSON_DEPTH);
      if (typeof body !== "object" || body === null || Array.isArray(body)) {
        throw new OAuthError("invalid_client_metadata", "The body must be a JSON object");
      }
      const client = await m.oauth.registerClient(body);
      c.header("Cache-Control", "no-store");
      return c.json(
        {
          client_id: client.id,
          client_id_issued_at: Math.floor(client.createdAt.getTime() / 1000),
          client_name: client.name,
          redirect_uris: client.redirectUris,
          token_endpoint_auth_method: "none",
          grant_types: ["authorization_code", "refresh_token"],
          response_types: ["code"],
        },
        201,
      );
    }),
  );

  app.post(OAUTH_PATHS.revoke, describeRevoke, (c) =>
    limited(c, "write", async () => {
      const form = await readOAuthForm(c);
      await m.oauth.revokeToken({ token: form.get("token"), clientId: form.get("client_id") });
      c.header("Cache-Control", "no-store");
      return c.body(null, 200);
    }),
  );
  return app;
}

/** Every answer of the token, registration and revocation endpoints carries or consumes a secret. */
export const OAUTH_PRIVATE_PATHS: readonly PrivatePath[] = [
  { path: OAUTH_PATHS.token, privacy: "always" },
  { path: OAUTH_PATHS.register, privacy: "always" },
  { path: OAUTH_PATHS.revoke, privacy: "always" },
];

/** The authorization server for the host (createHttpApp's `surfaces`, before the pages' catch-all). */
export function createOAuthSurface(options: OAuthSurfaceOptions): Surface {
  return { path: "/", app: createOAuthApp(options), private: OAUTH_PRIVATE_PATHS };
}

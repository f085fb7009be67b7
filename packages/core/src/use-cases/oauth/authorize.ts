import type { Deps } from "../../deps.js";
import type { Actor } from "../../domain/actor.js";
import { AUTHORIZATION_CODE_TTL_MS, redirectUriAllowed, S256_CHALLENGE } from "../../domain/oauth.js";
import { OAuthError } from "../../domain/oauth-error.js";
import { grantableScopes, isScope, SCOPES, type Scope } from "../../domain/scopes.js";
import { sha256Hex, toBase64Url } from "../../support/crypto.js";
import { requireJwtUser } from "../access.js";
import { type ResolvedClient, resolveClient } from "./clients.js";
import { oauthSettings } from "./settings.js";

/** The parameters of an authorization request (RFC 6749 section 4.1.1, RFC 7636, RFC 8707), as sent. */
export interface AuthorizationParams {
  responseType?: string | undefined;
  clientId?: string | undefined;
  redirectUri?: string | undefined;
  scope?: string | undefined;
  state?: string | undefined;
  codeChallenge?: string | undefined;
  codeChallengeMethod?: string | undefined;
  resources?: readonly string[] | undefined;
}

/** A request found good: what the consent page shows and what an approval grants. */
export interface PendingAuthorization {
  client: ResolvedClient;
  redirectUri: string;
  /** What the client asked for (every scope but `admin` when it named none). */
  scopes: Scope[];
  resources: string[];
  codeChallenge: string;
  state: string | undefined;
}

/** The longest `state` echoed back; a client needs a few dozen characters. */
const MAX_STATE_LENGTH = 1024;

/**
 * Checks an authorization request in the order RFC 6749 section 4.1.2.1 asks: the client and the
 * redirect URI first (a failure there is shown to the user, never redirected), then the rest (a
 * failure is redirectable). PKCE with S256 is required; `plain` is refused.
 */
export async function checkAuthorization(
  deps: Pick<Deps, "repos" | "clientMetadata" | "settings">,
  params: AuthorizationParams,
): Promise<PendingAuthorization> {
  const { resources: known } = oauthSettings(deps.settings);
  if (!params.clientId) throw new OAuthError("invalid_request", "client_id is required");
  const client = await resolveClient(deps, params.clientId);
  const redirectUri =
    params.redirectUri ?? (client.redirectUris.length === 1 ? client.redirectUris[0] : undefined);
  if (redirectUri === undefined) throw new OAuthError("invalid_request", "redirect_uri is required");
  if (!redirectUriAllowed(client.redirectUris, redirectUri)) {
    throw new OAuthError("invalid_request", "redirect_uri is not one the client registered");
  }
  const refuse = (
    code: "invalid_request" | "invalid_scope" | "invalid_target" | "unsupported_response_type",
    why: string,
  ) => new OAuthError(code, why, { redirectUri });
  if (params.responseType !== "code") throw refuse("unsupported_response_type", "response_type must be code");
  if (params.codeChallengeMethod !== "S256") {
    throw refuse("invalid_request", "PKCE is required with code_challenge_method S256 (plain is refused)");
  }
  if (!params.codeChallenge || !S256_CHALLENGE.test(params.codeChallenge)) {
    throw refuse("invalid_request", "code_challenge must be the base64url SHA-256 of a verifier");
  }
  if (params.state !== undefined && params.state.length > MAX_STATE_LENGTH) {
    throw refuse("invalid_request", `state must be at most ${MAX_STATE_LENGTH} characters`);
  }
  const words = (params.scope ?? "").split(" ").filter(Boolean);
  const unknown = words.find((word) => !isScope(word));
  if (unknown !== undefined) throw refuse("invalid_scope", `Unknown scope ${unknown.slice(0, 64)}`);
  const scopes = words.length > 0 ? [...new Set(words as Scope[])] : SCOPES.filter((s) => s !== "admin");
  const resources = params.resources?.length ? [...new Set(params.resources)] : [...known];
  const foreign = resources.find((resource) => !known.includes(resource));
  if (foreign !== undefined) throw refuse("invalid_target", "resource must name this server's /mcp or /api");
  return { client, redirectUri, scopes, resources, codeChallenge: params.codeChallenge, state: params.state };
}

/**
 * The signed-in user approves `pending`, limited to `chosen` (the consent page's checkboxes) and to
 * what the user may hold: answers the authorization code, single use and valid five minutes. Only a
 * password sign-in (the pages' session) may approve: an API key or an OAuth token cannot.
 */
export async function approveAuthorization(
  deps: Pick<Deps, "repos" | "clock" | "random" | "ids">,
  actor: Actor,
  pending: PendingAuthorization,
  chosen: readonly string[],
): Promise<string> {
  const { user } = requireJwtUser(actor);
  const allowed = new Set<string>(grantableScopes(user.isAdmin));
  const scopes = pending.scopes.filter((scope) => chosen.includes(scope) && allowed.has(scope));
  const code = toBase64Url(deps.random.bytes(32));
  const now = deps.clock.now();
  await deps.repos.oauthGrants.insertCode({
    codeHash: sha256Hex(code),
    grantId: deps.ids.newId(now),
    userId: user.id,
    clientId: pending.client.id,
    clientName: pending.client.name,
    redirectUri: pending.redirectUri,
    codeChallenge: pending.codeChallenge,
    scopes,
    resources: pending.resources,
    tokenVersion: user.tokenVersion,
    expiresAt: new Date(now.getTime() + AUTHORIZATION_CODE_TTL_MS),
  });
  return code;
}

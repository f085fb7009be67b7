import type { Deps } from "../../deps.js";
import {
  ACCESS_TOKEN_TTL_SECONDS,
  type OAuthGrant,
  pkceMatches,
  REFRESH_TOKEN_TTL_MS,
} from "../../domain/oauth.js";
import { OAuthError } from "../../domain/oauth-error.js";
import { isScope, type Scope } from "../../domain/scopes.js";
import { sha256Hex, toBase64Url } from "../../support/crypto.js";

/** What the token endpoint answers (RFC 6749 section 5.1), in core's words. */
export interface TokenSet {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  scopes: readonly Scope[];
}

/** The token request of the authorization_code grant (RFC 6749 section 4.1.3, RFC 7636, RFC 8707). */
export interface CodeExchange {
  clientId?: string | undefined;
  code?: string | undefined;
  redirectUri?: string | undefined;
  codeVerifier?: string | undefined;
  resources?: readonly string[] | undefined;
}

/** The token request of the refresh_token grant (RFC 6749 section 6). */
export interface RefreshRequest {
  clientId?: string | undefined;
  refreshToken?: string | undefined;
  scope?: string | undefined;
  resources?: readonly string[] | undefined;
}

type TokenDeps = Pick<Deps, "repos" | "clock" | "random" | "accessTokens">;

/** The digest of a code or refresh token as issued (32 random bytes, base64url); null for anything else. */
function digestOf(secret: string | undefined): string | null {
  return secret !== undefined && /^[A-Za-z0-9_-]{43}$/.test(secret) ? sha256Hex(secret) : null;
}

const badGrant = (why: string) => new OAuthError("invalid_grant", why);

/**
 * Exchanges an authorization code for tokens. The code must be live, of this client and redirect
 * URI, and match its PKCE verifier. A code used a second time is refused and the grant its first
 * use made is revoked (RFC 6749 section 4.1.2): whoever replays a stolen code ends the access it gave.
 */
export async function exchangeCode(deps: TokenDeps, request: CodeExchange): Promise<TokenSet> {
  const hash = digestOf(request.code);
  const now = deps.clock.now();
  const code = hash === null ? null : await deps.repos.oauthGrants.findCode(hash, now);
  if (hash === null || !code || code.clientId !== request.clientId) throw badGrant("Invalid or expired code");
  if (request.redirectUri !== undefined && request.redirectUri !== code.redirectUri) {
    throw badGrant("redirect_uri differs from the authorization request's");
  }
  if (!request.codeVerifier || !pkceMatches(request.codeVerifier, code.codeChallenge)) {
    throw badGrant("code_verifier does not match the code_challenge");
  }
  const audience = narrowResources(code.resources, request.resources);
  const user = await deps.repos.users.findById(code.userId);
  if (!user || user.tokenVersion !== code.tokenVersion) throw badGrant("The approving account has changed");
  const refreshToken = newSecret(deps);
  const expiresAt = new Date(now.getTime() + REFRESH_TOKEN_TTL_MS);
  const grant: OAuthGrant = {
    id: code.grantId,
    userId: code.userId,
    clientId: code.clientId,
    clientName: code.clientName,
    scopes: code.scopes,
    resources: code.resources,
    tokenVersion: code.tokenVersion,
    createdAt: now,
    expiresAt,
    revokedAt: null,
  };
  const refresh = { tokenHash: sha256Hex(refreshToken), grantId: grant.id, expiresAt, usedAt: null };
  const outcome = await deps.repos.oauthGrants.exchangeCode(hash, grant, refresh, now);
  if (outcome.kind === "reused") throw badGrant("This code was already used: the access it gave is revoked");
  return tokenSet(deps, grant, grant.scopes, audience, refreshToken);
}

/**
 * Exchanges a refresh token for new tokens, rotating it: the token presented is used up and a new
 * one is answered. A refresh token presented a second time revokes the whole grant (RFC 9700
 * section 4.14.2). `scope` and `resource` may only narrow what was granted.
 */
export async function refreshGrant(deps: TokenDeps, request: RefreshRequest): Promise<TokenSet> {
  const hash = digestOf(request.refreshToken);
  const known = hash === null ? null : await deps.repos.oauthGrants.findGrantByRefreshToken(hash);
  if (hash === null || !known || known.clientId !== request.clientId) throw badGrant("Invalid refresh token");
  const words = (request.scope ?? "").split(" ").filter(Boolean);
  if (words.some((word) => !isScope(word) || !known.scopes.includes(word))) {
    throw new OAuthError("invalid_scope", "scope may only narrow what was granted");
  }
  const audience = narrowResources(known.resources, request.resources);
  const now = deps.clock.now();
  const refreshToken = newSecret(deps);
  const expiresAt = new Date(now.getTime() + REFRESH_TOKEN_TTL_MS);
  const outcome = await deps.repos.oauthGrants.rotateRefreshToken(
    hash,
    { tokenHash: sha256Hex(refreshToken), expiresAt },
    now,
  );
  if (outcome.kind === "reused") throw badGrant("This refresh token was already used: the grant is revoked");
  if (outcome.kind === "invalid") throw badGrant("Invalid refresh token");
  const user = await deps.repos.users.findById(outcome.grant.userId);
  if (!user || user.tokenVersion !== outcome.grant.tokenVersion)
    throw badGrant("The approving account has changed");
  const scopes = words.length > 0 ? (words as Scope[]) : outcome.grant.scopes;
  return tokenSet(deps, outcome.grant, scopes, audience, refreshToken);
}

/** The resources a token is for: all those granted, or the ones the request names (each granted). */
function narrowResources(
  granted: readonly string[],
  asked: readonly string[] | undefined,
): readonly string[] {
  if (!asked?.length) return granted;
  if (asked.some((resource) => !granted.includes(resource))) {
    throw new OAuthError("invalid_target", "resource was not granted");
  }
  return [...new Set(asked)];
}

function newSecret(deps: Pick<Deps, "random">): string {
  return toBase64Url(deps.random.bytes(32));
}

async function tokenSet(
  deps: TokenDeps,
  grant: OAuthGrant,
  scopes: readonly Scope[],
  audience: readonly string[],
  refreshToken: string,
): Promise<TokenSet> {
  if (!deps.accessTokens) throw new OAuthError("invalid_request", "This server issues no access tokens");
  const accessToken = await deps.accessTokens.issue(
    { userId: grant.userId, grantId: grant.id, clientId: grant.clientId, scopes, audience },
    ACCESS_TOKEN_TTL_SECONDS,
  );
  return { accessToken, refreshToken, expiresIn: ACCESS_TOKEN_TTL_SECONDS, scopes };
}

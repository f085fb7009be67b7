import type { Deps } from "../../deps.js";
import { type Actor, ANONYMOUS } from "../../domain/actor.js";
import {
  API_KEY_PATTERN,
  keyRefusal,
  LAST_USED_INTERVAL_MS,
  shouldTouchLastUsed,
} from "../../domain/api-key.js";
import { grantIsLive } from "../../domain/oauth.js";
import { MarketplaceError } from "../../errors.js";
import { sha256Hex } from "../../support/crypto.js";

/** Credentials as presented by a caller; at most one is normally set. */
export interface Credentials {
  apiKey?: string | undefined;
  bearer?: string | undefined;
  /**
   * The resource the request addresses (RFC 8707), an absolute URL such as PUBLIC_URL + "/mcp":
   * an OAuth access token is accepted only where its audience names it.
   */
  resource?: string | undefined;
}

/**
 * Resolves presented credentials to an actor. No credential: anonymous. A
 * presented but invalid one (malformed, unknown, of a deleted user, issued
 * before a password change): `unauthenticated`; a deactivated key
 * `api_key_revoked`, an expired one `api_key_expired`. The user is read from
 * storage on every call, so admin rights and deletion apply at once. A key's
 * actor carries its scopes and expiry, which core's use cases honour.
 */
export async function authenticate(
  deps: Pick<Deps, "repos" | "tokens" | "clock" | "accessTokens">,
  credentials: Credentials,
): Promise<Actor> {
  const { apiKey, bearer } = credentials;
  if (apiKey !== undefined && bearer !== undefined) {
    // Both presented: both must be valid and name one user, so a good key
    // cannot smuggle a bad (or someone else's) token past the 401 rule.
    const [byKey, byToken] = await Promise.all([
      byApiKey(deps, apiKey),
      byBearer(deps, bearer, credentials.resource),
    ]);
    if (byKey.kind !== "user" || byToken.kind !== "user" || byKey.user.id !== byToken.user.id) {
      throw invalid("The API key and the token belong to different users");
    }
    return byKey;
  }
  if (apiKey !== undefined) return byApiKey(deps, apiKey);
  if (bearer !== undefined) return byBearer(deps, bearer, credentials.resource);
  return ANONYMOUS;
}

async function byApiKey(deps: Pick<Deps, "repos" | "clock">, value: string): Promise<Actor> {
  if (!API_KEY_PATTERN.test(value)) throw invalid("Invalid API key");
  // The lookup is by digest, so no comparison of the secret happens in this process.
  const digest = sha256Hex(value);
  const keys = deps.repos.apiKeys;
  const found = keys.findByHashWithUser
    ? await keys.findByHashWithUser(digest)
    : await keys.findByHash(digest).then((key) => key && { key, user: undefined });
  if (!found) throw invalid("Invalid API key");
  const { key } = found;
  const now = deps.clock.now();
  const refusal = keyRefusal(key, now);
  if (refusal === "revoked") throw new MarketplaceError("api_key_revoked");
  if (refusal === "expired") throw new MarketplaceError("api_key_expired");
  const user = found.user === undefined ? await deps.repos.users.findById(key.userId) : found.user;
  if (!user) throw invalid("Invalid API key");
  if (shouldTouchLastUsed(key, now))
    await deps.repos.apiKeys.touchLastUsed(key.id, now, LAST_USED_INTERVAL_MS);
  return {
    kind: "user",
    user,
    via: "api_key",
    keyId: key.id,
    ...(key.scopes === null ? {} : { scopes: key.scopes }),
    ...(key.expiresAt === null ? {} : { expiresAt: key.expiresAt }),
  };
}

async function byBearer(
  deps: Pick<Deps, "repos" | "tokens" | "clock" | "accessTokens">,
  token: string,
  resource: string | undefined,
): Promise<Actor> {
  if (token.length > 4096) throw invalid("Invalid or expired token");
  const claims = await deps.tokens.verify(token);
  if (!claims) return byAccessToken(deps, token, resource);
  const user = await deps.repos.users.findById(claims.sub);
  if (!user || user.tokenVersion !== claims.version) throw invalid("Invalid or expired token");
  return { kind: "user", user, via: "jwt" };
}

/**
 * An OAuth access token: valid, for this resource, and of a grant still live (revocation and a
 * password change end it at once, not at its expiry). Its scopes limit the actor as a key's do.
 */
async function byAccessToken(
  deps: Pick<Deps, "repos" | "clock" | "accessTokens">,
  token: string,
  resource: string | undefined,
): Promise<Actor> {
  const claims = await deps.accessTokens?.verify(token);
  if (!claims) throw invalid("Invalid or expired token");
  if (resource === undefined || !claims.audience.includes(resource)) {
    throw invalid("This token was issued for another resource");
  }
  const [grant, user] = await Promise.all([
    deps.repos.oauthGrants.findGrant(claims.grantId),
    deps.repos.users.findById(claims.userId),
  ]);
  if (
    !grant ||
    !user ||
    grant.userId !== user.id ||
    !grantIsLive(grant, deps.clock.now(), user.tokenVersion)
  ) {
    throw invalid("Invalid or expired token");
  }
  return { kind: "user", user, via: "oauth", grantId: grant.id, scopes: claims.scopes };
}

function invalid(message: string): MarketplaceError {
  return new MarketplaceError("unauthenticated", message);
}

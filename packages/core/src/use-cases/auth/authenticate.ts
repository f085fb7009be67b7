import type { Deps } from "../../deps.js";
import { type Actor, ANONYMOUS } from "../../domain/actor.js";
import {
  API_KEY_PATTERN,
  keyRefusal,
  LAST_USED_INTERVAL_MS,
  shouldTouchLastUsed,
} from "../../domain/api-key.js";
import { MarketplaceError } from "../../errors.js";
import { sha256Hex } from "../../support/crypto.js";

/** Credentials as presented by a caller; at most one is normally set. */
export interface Credentials {
  apiKey?: string | undefined;
  bearer?: string | undefined;
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
  deps: Pick<Deps, "repos" | "tokens" | "clock">,
  credentials: Credentials,
): Promise<Actor> {
  const { apiKey, bearer } = credentials;
  if (apiKey !== undefined && bearer !== undefined) {
    // Both presented: both must be valid and name one user, so a good key
    // cannot smuggle a bad (or someone else's) token past the 401 rule.
    const [byKey, byToken] = await Promise.all([byApiKey(deps, apiKey), byBearer(deps, bearer)]);
    if (byKey.kind !== "user" || byToken.kind !== "user" || byKey.user.id !== byToken.user.id) {
      throw invalid("The API key and the token belong to different users");
    }
    return byKey;
  }
  if (apiKey !== undefined) return byApiKey(deps, apiKey);
  if (bearer !== undefined) return byBearer(deps, bearer);
  return ANONYMOUS;
}

async function byApiKey(deps: Pick<Deps, "repos" | "clock">, value: string): Promise<Actor> {
  if (!API_KEY_PATTERN.test(value)) throw invalid("Invalid API key");
  // The lookup is by digest, so no comparison of the secret happens in this process.
  const key = await deps.repos.apiKeys.findByHash(sha256Hex(value));
  if (!key) throw invalid("Invalid API key");
  const now = deps.clock.now();
  const refusal = keyRefusal(key, now);
  if (refusal === "revoked") throw new MarketplaceError("api_key_revoked");
  if (refusal === "expired") throw new MarketplaceError("api_key_expired");
  const user = await deps.repos.users.findById(key.userId);
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

async function byBearer(deps: Pick<Deps, "repos" | "tokens">, token: string): Promise<Actor> {
  const claims = token.length > 4096 ? null : await deps.tokens.verify(token);
  if (!claims) throw invalid("Invalid or expired token");
  const user = await deps.repos.users.findById(claims.sub);
  if (!user || user.tokenVersion !== claims.version) throw invalid("Invalid or expired token");
  return { kind: "user", user, via: "jwt" };
}

function invalid(message: string): MarketplaceError {
  return new MarketplaceError("unauthenticated", message);
}

import type { Deps } from "../../deps.js";
import type { Actor } from "../../domain/actor.js";
import type { OAuthGrant } from "../../domain/oauth.js";
import { MarketplaceError } from "../../errors.js";
import { sha256Hex } from "../../support/crypto.js";
import { requireJwtUser, requireUuid } from "../access.js";

/**
 * Token revocation (RFC 7009): a refresh token or an access token ends its whole grant. Unknown
 * tokens, and tokens of another client, are answered like revoked ones (nothing to tell an
 * attacker), so this never throws for the token itself.
 */
export async function revokeToken(
  deps: Pick<Deps, "repos" | "clock" | "accessTokens">,
  request: { token?: string | undefined; clientId?: string | undefined },
): Promise<void> {
  const { token, clientId } = request;
  if (!token || token.length > 4096) return;
  let grant: OAuthGrant | null = null;
  if (/^[A-Za-z0-9_-]{43}$/.test(token)) {
    grant = await deps.repos.oauthGrants.findGrantByRefreshToken(sha256Hex(token));
  } else {
    const claims = await deps.accessTokens?.verify(token);
    if (claims) grant = await deps.repos.oauthGrants.findGrant(claims.grantId);
  }
  if (grant && (clientId === undefined || grant.clientId === clientId)) {
    await deps.repos.oauthGrants.revokeGrant(grant.id, deps.clock.now());
  }
}

/** The applications the signed-in user has connected, newest first (the account page). */
export async function listConnectedApps(
  deps: Pick<Deps, "repos" | "clock">,
  actor: Actor,
): Promise<OAuthGrant[]> {
  const { user } = requireJwtUser(actor);
  return deps.repos.oauthGrants.listLiveGrants(user.id, deps.clock.now());
}

/** Disconnects one of the user's applications: its tokens stop working at once. `not_found` if none. */
export async function revokeConnectedApp(
  deps: Pick<Deps, "repos" | "clock">,
  actor: Actor,
  grantId: string,
): Promise<void> {
  const { user } = requireJwtUser(actor);
  const id = requireUuid(grantId, () => new MarketplaceError("not_found"));
  if (!(await deps.repos.oauthGrants.revokeGrant(id, deps.clock.now(), user.id))) {
    throw new MarketplaceError("not_found");
  }
}

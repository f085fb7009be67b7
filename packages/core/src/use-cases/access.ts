import type { Actor, UserActor } from "../domain/actor.js";
import { MarketplaceError } from "../errors.js";
import type { AuthRequirement } from "./meta/capabilities.js";

/** The caller must be signed in (API key or JWT). */
export function requireUser(actor: Actor): UserActor {
  if (actor.kind !== "user") throw new MarketplaceError("unauthenticated");
  return actor;
}

/** The caller must be signed in with a JWT: an API key on a JWT-only route is 401. */
export function requireJwtUser(actor: Actor): UserActor {
  const user = requireUser(actor);
  if (user.via !== "jwt")
    throw new MarketplaceError("unauthenticated", "This endpoint requires a Bearer JWT");
  return user;
}

/** The caller must hold an admin JWT. */
export function requireAdmin(actor: Actor): UserActor {
  const user = requireJwtUser(actor);
  if (!user.user.isAdmin) throw new MarketplaceError("admin_required");
  return user;
}

/** A path id that is not a UUID is a 400 (or the caller's own not-found). */
export function requireUuid(
  id: string,
  onInvalid: MarketplaceError = new MarketplaceError("invalid_input", "id: must be a UUID"),
): string {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) throw onInvalid;
  return id.toLowerCase();
}

/**
 * Applies a documented auth requirement (capabilityTable). Adapters call it
 * before validating a body, so an anonymous caller learns 401 rather than a
 * field error; the use cases apply the same checks themselves.
 */
export function assertAccess(actor: Actor, requirement: AuthRequirement): void {
  if (requirement === "public") return;
  if (requirement === "key-or-jwt") requireUser(actor);
  else if (requirement === "jwt") requireJwtUser(actor);
  else requireAdmin(actor);
}

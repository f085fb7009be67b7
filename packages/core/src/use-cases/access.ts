import type { Actor, UserActor } from "../domain/actor.js";
import { isUuid } from "../domain/uuid.js";
import { invalidField, MarketplaceError } from "../errors.js";

/** The caller must be signed in (API key or JWT). */
export function requireUser(actor: Actor): UserActor {
  if (actor.kind !== "user") throw new MarketplaceError("unauthenticated");
  return actor;
}

/**
 * The caller must have signed in with a password (a JWT, or a browser session
 * of the web pages): an API key on a JWT-only route is 401.
 */
export function requireJwtUser(actor: Actor): UserActor {
  const user = requireUser(actor);
  if (user.via === "api_key")
    throw new MarketplaceError("unauthenticated", "This endpoint requires a Bearer JWT");
  return user;
}

/** The caller must hold an admin JWT. */
export function requireAdmin(actor: Actor): UserActor {
  const user = requireJwtUser(actor);
  if (!user.user.isAdmin) throw new MarketplaceError("admin_required");
  return user;
}

/** An id that is not a UUID is a 400 naming `field` (or the caller's own not-found); lower-cased. */
export function requireUuid(
  id: string,
  onInvalid: () => MarketplaceError = () => invalidField("id", "must be a UUID"),
): string {
  // The error is made only when thrown: capturing its stack costs more than the check.
  if (!isUuid(id)) throw onInvalid();
  return id.toLowerCase();
}

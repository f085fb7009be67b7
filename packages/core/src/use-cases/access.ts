import type * as v from "valibot";
import type { Settings } from "../deps.js";
import { type Actor, hasScope, isAdmin, signedInWithPassword, type UserActor } from "../domain/actor.js";
import type { Scope } from "../domain/scopes.js";
import { isUuid } from "../domain/uuid.js";
import { invalidField, MarketplaceError } from "../errors.js";
import { validate } from "../support/validate.js";

/** The caller must be signed in (API key or JWT). */
export function requireUser(actor: Actor): UserActor {
  if (actor.kind !== "user") throw new MarketplaceError("unauthenticated");
  return actor;
}

/**
 * The caller must have signed in with a password (a JWT, or a browser session
 * of the web pages): an API key or an OAuth token on a JWT-only route is 401.
 */
export function requireJwtUser(actor: Actor): UserActor {
  const user = requireUser(actor);
  if (!signedInWithPassword(user))
    throw new MarketplaceError("unauthenticated", "This endpoint requires a Bearer JWT");
  return user;
}

/**
 * The caller's credential must allow `scope` (a credential without scopes allows everything its
 * user may): 403 `insufficient_scope` otherwise, and 401 for an anonymous caller.
 */
export function requireScope(actor: Actor, scope: Scope): UserActor {
  const user = requireUser(actor);
  if (!hasScope(user, scope)) {
    throw new MarketplaceError("insufficient_scope", `This credential lacks the scope ${scope}`);
  }
  return user;
}

/** The caller must hold an admin JWT. */
export function requireAdmin(actor: Actor): UserActor {
  const user = requireJwtUser(actor);
  if (!isAdmin(user)) throw new MarketplaceError("admin_required");
  return user;
}

/**
 * The opening of a use case whose rules depend on the security mode: strict
 * mode needs a signed-in caller, checked before the input is read so that an
 * anonymous caller hears `unauthenticated` whatever it sent; then the input is
 * validated. `strict` tells the rules that follow which mode applies.
 */
export function admitByMode<S extends v.GenericSchema>(
  settings: Pick<Settings, "securityMode">,
  actor: Actor,
  schema: S,
  input: unknown,
): { strict: boolean; data: v.InferOutput<S> } {
  const strict = settings.securityMode === "strict";
  if (strict) requireUser(actor);
  return { strict, data: validate(schema, input) };
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

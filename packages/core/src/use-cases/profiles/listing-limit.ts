import type { Deps } from "../../deps.js";
import { type Actor, isSelfOrAdmin } from "../../domain/actor.js";
import { maxSlots } from "../../domain/limits.js";
import { MarketplaceError } from "../../errors.js";
import type { ListingLimit } from "../../marketplace.js";
import { userIdSchema } from "../../schemas/profile.js";
import { validate } from "../../support/validate.js";
import { requireUser } from "../access.js";

/** A user's slots: the count is derived from their active, unexpired listings. Unknown user: 404. */
export async function getListingLimit(
  deps: Pick<Deps, "repos" | "clock" | "settings">,
  query: unknown,
): Promise<ListingLimit> {
  const { user_id } = validate(userIdSchema, query);
  const user = await deps.repos.users.findById(user_id.toLowerCase());
  if (!user) throw new MarketplaceError("user_not_found");
  const count = await deps.repos.listings.countActiveByUser(user.id, deps.clock.now());
  const slots = maxSlots(deps.settings.slots, user);
  return {
    canPost: count < slots,
    activeListingsCount: count,
    maxSlots: slots,
    accountType: user.accountType,
  };
}

/**
 * The compatibility POST /api/profiles/limit: answers like the GET and moves
 * nothing, so no caller can lock another out of posting. Strict mode: self or admin.
 */
export async function postListingLimit(
  deps: Pick<Deps, "repos" | "clock" | "settings">,
  actor: Actor,
  input: unknown,
): Promise<ListingLimit> {
  if (deps.settings.securityMode === "strict") {
    requireUser(actor);
    const { user_id } = validate(userIdSchema, input);
    if (!isSelfOrAdmin(actor, user_id.toLowerCase())) throw new MarketplaceError("forbidden");
  }
  return getListingLimit(deps, input);
}

/** Whether a user is an admin; an unknown user is simply not. */
export async function checkAdmin(deps: Pick<Deps, "repos">, query: unknown): Promise<boolean> {
  const { user_id } = validate(userIdSchema, query);
  return (await deps.repos.users.findById(user_id.toLowerCase()))?.isAdmin ?? false;
}

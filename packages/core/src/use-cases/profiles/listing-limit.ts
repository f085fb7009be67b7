import type { Deps } from "../../deps.js";
import { type Actor, isSelfOrAdmin } from "../../domain/actor.js";
import { maxSlots } from "../../domain/limits.js";
import { MarketplaceError } from "../../errors.js";
import { type UserIdInput, userIdSchema } from "../../schemas/profile.js";
import { validate } from "../../support/validate.js";
import { requireUser } from "../access.js";

/** A user's slot report. */
export interface ListingLimit {
  canPost: boolean;
  activeListingsCount: number;
  maxSlots: number;
  accountType: string;
}

/** A user's slots: the count is derived from their active, unexpired listings. Unknown user: 404. */
export async function getListingLimit(
  deps: Pick<Deps, "repos" | "clock" | "settings">,
  query: UserIdInput,
): Promise<ListingLimit> {
  const { userId } = validate(userIdSchema, query);
  const user = await deps.repos.users.findById(userId.toLowerCase());
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
 * The compatibility POST of the slot report: answers like the GET and moves
 * nothing, so no caller can lock another out of posting. Strict mode: self or admin.
 */
export async function postListingLimit(
  deps: Pick<Deps, "repos" | "clock" | "settings">,
  actor: Actor,
  input: UserIdInput,
): Promise<ListingLimit> {
  if (deps.settings.securityMode === "strict") {
    requireUser(actor);
    const { userId } = validate(userIdSchema, input);
    if (!isSelfOrAdmin(actor, userId.toLowerCase())) throw new MarketplaceError("forbidden");
  }
  return getListingLimit(deps, input);
}

/** Whether a user is an admin; an unknown user is simply not. */
export async function checkAdmin(deps: Pick<Deps, "repos">, query: UserIdInput): Promise<boolean> {
  const { userId } = validate(userIdSchema, query);
  return (await deps.repos.users.findById(userId.toLowerCase()))?.isAdmin ?? false;
}

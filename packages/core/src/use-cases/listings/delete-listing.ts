import type { Deps } from "../../deps.js";
import { type Actor, isAdmin } from "../../domain/actor.js";
import { MarketplaceError } from "../../errors.js";
import type { IdInput } from "../../schemas/id.js";
import { listingEvent } from "../../support/events.js";
import { requireUser } from "../access.js";
import { loadEditable } from "./get-listing.js";

/** Deletes a listing (author or admin). Messages about it are kept. */
export async function deleteListing(
  deps: Pick<Deps, "repos" | "clock" | "random">,
  actor: Actor,
  input: IdInput,
): Promise<void> {
  const { user } = requireUser(actor);
  const listing = await loadEditable(deps, user.id, isAdmin(actor), input);
  const deleted = listingEvent(deps, "listing.deleted", listing);
  if (!(await deps.repos.listings.delete(listing.id, [deleted])))
    throw new MarketplaceError("listing_not_found");
}

import type { Deps } from "../../deps.js";
import { type Actor, isAdmin } from "../../domain/actor.js";
import { maxSlots } from "../../domain/limits.js";
import type { Listing, ListingChanges } from "../../domain/listing.js";
import { MarketplaceError } from "../../errors.js";
import type { IdInput } from "../../schemas/id.js";
import { type ListingPatchInput, listingPatchSchema } from "../../schemas/listing-patch.js";
import { listingEvent } from "../../support/events.js";
import { validate } from "../../support/validate.js";
import { requireUser } from "../access.js";
import { loadEditable } from "./get-listing.js";

/** listings.update: the listing's id and the fields to change. */
export type UpdateListingInput = IdInput & ListingPatchInput;

/**
 * Edits a listing (author or admin). Making it active again, by status or by
 * moving expires_at into the future, takes one of the author's slots: 403
 * when they are full. Whether an edit does that is decided in the same atomic
 * step as the write, so racing pauses, edits and creates never overshoot.
 */
export async function updateListing(
  deps: Pick<Deps, "repos" | "clock" | "random" | "settings">,
  actor: Actor,
  input: UpdateListingInput,
): Promise<Listing> {
  const { user } = requireUser(actor);
  const listing = await loadEditable(deps, user.id, isAdmin(actor), input);
  const data = validate(listingPatchSchema, input);
  const changes: ListingChanges = {
    title: data.title,
    description: data.description,
    price: data.price,
    priceUnit: data.priceUnit,
    category: data.category,
    condition: data.condition,
    images: data.images,
    structuredData: data.structuredData,
    contactEmail: data.contactEmail,
    expiresAt: data.expiresAt,
    status: data.status,
  };
  // The author's slots go with every edit, and the repository alone decides, under
  // its lock, whether the edit reactivates: a decision taken here, on the read
  // above, would race a concurrent pause or create (the read may be stale by then).
  const author = listing.userId === user.id ? user : await deps.repos.users.findById(listing.userId);
  if (!author) throw new MarketplaceError("listing_not_found");
  const guard = { maxSlots: maxSlots(deps.settings.slots, author), now: deps.clock.now() };
  const result = await deps.repos.listings.update(listing.id, changes, guard, [
    listingEvent(deps, "listing.updated", listing),
  ]);
  if (result === "limit_reached") throw new MarketplaceError("listing_limit_reached");
  if (!result) throw new MarketplaceError("listing_not_found");
  return result;
}

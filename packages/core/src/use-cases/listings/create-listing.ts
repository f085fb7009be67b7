import type { Deps } from "../../deps.js";
import type { Actor } from "../../domain/actor.js";
import { maxSlots } from "../../domain/limits.js";
import type { Listing } from "../../domain/listing.js";
import { invalidField, MarketplaceError } from "../../errors.js";
import { type NewListingInput, newListingSchema } from "../../schemas/new-listing.js";
import { listingEvent } from "../../support/events.js";
import { validate } from "../../support/validate.js";
import { requireUser } from "../access.js";
import { requireProvenAddress } from "../proven-address.js";

/**
 * Publishes a listing for the caller, within their slots: a full author gets
 * `listing_limit_reached`, and concurrent creates cannot overshoot (the
 * repository counts and inserts in one atomic step). With REQUIRE_VERIFIED_EMAIL
 * the author's address must be proven.
 */
export async function createListing(
  deps: Pick<Deps, "repos" | "clock" | "ids" | "random" | "settings">,
  actor: Actor,
  input: NewListingInput,
): Promise<Listing> {
  const { user } = requireUser(actor);
  requireProvenAddress(deps.settings, user);
  const data = validate(newListingSchema, input);
  const now = deps.clock.now();
  if (data.expiresAt && data.expiresAt.getTime() <= now.getTime()) {
    throw invalidField("expiresAt", "must be in the future");
  }
  const listing: Listing = {
    id: deps.ids.newId(now),
    title: data.title,
    description: data.description,
    price: data.price ?? null,
    priceUnit: data.priceUnit,
    category: data.category,
    condition: data.condition,
    images: data.images,
    userId: user.id,
    structuredData: data.structuredData,
    status: "active",
    contactEmail: data.contactEmail ?? null,
    expiresAt: data.expiresAt ?? null,
    views: 0,
    createdAt: now,
  };
  const inserted = await deps.repos.listings.insertWithinSlots(
    listing,
    { maxSlots: maxSlots(deps.settings.slots, user), now },
    [listingEvent(deps, "listing.created", listing)],
  );
  if (!inserted) throw new MarketplaceError("listing_limit_reached");
  return listing;
}

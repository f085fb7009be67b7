import type { Deps } from "../../deps.js";
import type { Listing } from "../../domain/listing.js";
import { MarketplaceError } from "../../errors.js";
import { type IdInput, idSchema } from "../../schemas/id.js";
import { validate } from "../../support/validate.js";
import { requireUuid } from "../access.js";

/** One listing whatever its status; a malformed or unknown id is `listing_not_found`. */
export async function getListing(deps: Pick<Deps, "repos">, input: IdInput): Promise<Listing> {
  const { id } = validate(idSchema, input);
  const listing = await deps.repos.listings.findById(requireUuid(id, notFound));
  if (!listing) throw notFound();
  return listing;
}

const notFound = () => new MarketplaceError("listing_not_found");

/** Counts one view, atomically. Unknown id: `listing_not_found`. */
export async function recordView(deps: Pick<Deps, "repos">, input: IdInput): Promise<void> {
  const { id } = validate(idSchema, input);
  if (!(await deps.repos.listings.incrementViews(requireUuid(id))))
    throw new MarketplaceError("listing_not_found");
}

/** Loads a listing the caller may change (author or admin): 400, 404 or 403 otherwise. */
export async function loadEditable(
  deps: Pick<Deps, "repos">,
  actorUserId: string,
  isAdmin: boolean,
  input: IdInput,
) {
  const { id } = validate(idSchema, input);
  const listing = await deps.repos.listings.findById(requireUuid(id));
  if (!listing) throw new MarketplaceError("listing_not_found");
  if (listing.userId !== actorUserId && !isAdmin) {
    throw new MarketplaceError("forbidden", "Only the author or an admin may change this listing");
  }
  return listing;
}

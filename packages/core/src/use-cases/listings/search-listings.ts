import type { Deps } from "../../deps.js";
import { type Actor, isAdmin, isSelfOrAdmin } from "../../domain/actor.js";
import type { Listing } from "../../domain/listing.js";
import type { Page } from "../../domain/page.js";
import { MarketplaceError } from "../../errors.js";
import { type ListingQueryInput, listingQuerySchema } from "../../schemas/listing-query.js";
import { decodeCursor, toSearchPage } from "../../support/cursor.js";
import { validate } from "../../support/validate.js";

/**
 * Searches listings, newest first. Anyone sees active, unexpired listings;
 * other statuses only for one's own listings (user_id = caller) or an admin.
 */
export async function searchListings(
  deps: Pick<Deps, "repos" | "clock">,
  actor: Actor,
  query: ListingQueryInput,
): Promise<Page<Listing>> {
  const q = validate(listingQuerySchema, query);
  const userId = q.userId?.toLowerCase();
  if (q.status !== "active") {
    const allowed = userId === undefined ? isAdmin(actor) : isSelfOrAdmin(actor, userId);
    if (!allowed) {
      throw new MarketplaceError(
        "forbidden",
        "status other than active is only for your own listings (userId) or admins",
      );
    }
  }
  const text = q.search !== undefined && q.search.trim() !== "" ? q.search : undefined;
  const before = decodeCursor(q.cursor);
  const rows = await deps.repos.listings.search(
    {
      category: q.category === "all" ? undefined : q.category,
      text,
      userId,
      status: q.status,
      limit: q.limit + 1,
      before,
    },
    deps.clock.now(),
  );
  return toSearchPage(rows, q.limit, before);
}

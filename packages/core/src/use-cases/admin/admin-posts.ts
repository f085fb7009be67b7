import type { Deps } from "../../deps.js";
import type { Actor } from "../../domain/actor.js";
import type { Listing } from "../../domain/listing.js";
import type { Page } from "../../domain/page.js";
import { MarketplaceError } from "../../errors.js";
import { type AdminDeletePostInput, adminDeletePostSchema } from "../../schemas/admin.js";
import { type PageQueryInput, pageQuerySchema } from "../../schemas/page-query.js";
import { decodeCursor, toPage } from "../../support/cursor.js";
import { listingEvent } from "../../support/events.js";
import { validate } from "../../support/validate.js";
import { requireAdmin } from "../access.js";

/** Every listing of any status, newest first (admin JWT). */
export async function listPosts(
  deps: Pick<Deps, "repos">,
  actor: Actor,
  query: PageQueryInput,
): Promise<Page<Listing>> {
  requireAdmin(actor);
  const q = validate(pageQuerySchema, query);
  return toPage(
    await deps.repos.listings.listAll({ limit: q.limit + 1, before: decodeCursor(q.cursor) }),
    q.limit,
  );
}

/** Deletes any listing (admin JWT). Unknown id: 404. */
export async function deletePost(
  deps: Pick<Deps, "repos" | "clock" | "random">,
  actor: Actor,
  input: AdminDeletePostInput,
): Promise<void> {
  requireAdmin(actor);
  const { postId } = validate(adminDeletePostSchema, input);
  const listing = await deps.repos.listings.findById(postId.toLowerCase());
  const told = listing ? [listingEvent(deps, "listing.deleted", listing)] : [];
  if (!listing || !(await deps.repos.listings.delete(listing.id, told)))
    throw new MarketplaceError("listing_not_found");
}

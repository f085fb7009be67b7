import type { Deps } from "../../deps.js";
import type { Actor } from "../../domain/actor.js";
import type { Listing } from "../../domain/listing.js";
import type { Page } from "../../domain/page.js";
import { MarketplaceError } from "../../errors.js";
import { pageQuerySchema } from "../../schemas/page-query.js";
import { decodeCursor, toPage } from "../../support/cursor.js";
import { validate } from "../../support/validate.js";
import { requireAdmin, requireUuid } from "../access.js";

/** Every listing of any status, newest first (admin JWT). */
export async function listPosts(
  deps: Pick<Deps, "repos">,
  actor: Actor,
  query: unknown,
): Promise<Page<Listing>> {
  requireAdmin(actor);
  const q = validate(pageQuerySchema, query);
  return toPage(
    await deps.repos.listings.listAll({ limit: q.limit + 1, before: decodeCursor(q.cursor) }),
    q.limit,
  );
}

/** Deletes any listing (admin JWT). Unknown id: 404. */
export async function deletePost(deps: Pick<Deps, "repos">, actor: Actor, id: string): Promise<void> {
  requireAdmin(actor);
  if (
    !(await deps.repos.listings.delete(
      requireUuid(id, new MarketplaceError("invalid_input", "post_id: must be a UUID")),
    ))
  ) {
    throw new MarketplaceError("listing_not_found");
  }
}

import type { Deps } from "../../deps.js";
import type { Actor, UserActor } from "../../domain/actor.js";
import { searchWords } from "../../domain/full-text.js";
import { type SearchParameters, searchCriteria } from "../../domain/listing-criteria.js";
import type { Page } from "../../domain/page.js";
import {
  defaultSavedSearchName,
  MAX_SAVED_SEARCHES_PER_USER,
  type SavedSearch,
} from "../../domain/saved-search.js";
import { invalidField, MarketplaceError } from "../../errors.js";
import { type IdInput, idSchema } from "../../schemas/id.js";
import { type PageQueryInput, pageQuerySchema } from "../../schemas/page-query.js";
import { type CreateSavedSearchInput, createSavedSearchSchema } from "../../schemas/saved-search.js";
import { decodeCursor, toPage } from "../../support/cursor.js";
import { validate } from "../../support/validate.js";
import { requireUser, requireUuid } from "../access.js";

/**
 * Saves a search for the caller, to be told of new listings that match it: GET /api/listings's
 * parameters, validated as that search validates them, at least one of them a real criterion (a
 * blank `search`, a `q` without words and category "all" filter nothing). At most
 * MAX_SAVED_SEARCHES_PER_USER, counted and stored in one atomic step.
 */
export async function createSavedSearch(
  deps: Pick<Deps, "repos" | "clock" | "ids">,
  actor: Actor,
  input: CreateSavedSearchInput,
): Promise<SavedSearch> {
  const caller = requireUser(actor);
  const data = validate(createSavedSearchSchema, input);
  if (data.minPrice !== undefined && data.maxPrice !== undefined && data.minPrice > data.maxPrice) {
    throw invalidField("minPrice", "must not be above the maximum price");
  }
  const criteria = {
    // A q without words searches for nothing, so none is kept.
    q: data.q !== undefined && searchWords(data.q).length > 0 ? data.q.trim() : null,
    search: data.search !== undefined && data.search.trim() !== "" ? data.search : null,
    category: data.category === undefined || data.category === "all" ? null : data.category,
    minPrice: data.minPrice ?? null,
    maxPrice: data.maxPrice ?? null,
  };
  if (!hasCriterion(criteria)) {
    throw new MarketplaceError(
      "invalid_input",
      "A saved search needs at least one of q, search, category, min_price or max_price",
    );
  }
  const now = deps.clock.now();
  const saved: SavedSearch = {
    id: deps.ids.newId(now),
    userId: caller.user.id,
    name: data.name || defaultSavedSearchName(criteria),
    ...criteria,
    createdAt: now,
  };
  if (!(await deps.repos.savedSearches.insertWithinLimit(saved, MAX_SAVED_SEARCHES_PER_USER))) {
    throw new MarketplaceError("saved_search_limit_reached");
  }
  return saved;
}

/** Whether the parameters filter anything, as GET /api/listings reads them. */
function hasCriterion(parameters: SearchParameters): boolean {
  const { status: _, ...criteria } = searchCriteria(parameters);
  return Object.values(criteria).some((value) => value !== undefined);
}

/** The caller's saved searches, newest first. */
export async function listSavedSearches(
  deps: Pick<Deps, "repos">,
  actor: Actor,
  query: PageQueryInput,
): Promise<Page<SavedSearch>> {
  const { user } = requireUser(actor);
  const q = validate(pageQuerySchema, query);
  const rows = await deps.repos.savedSearches.listByUser(user.id, {
    limit: q.limit + 1,
    before: decodeCursor(q.cursor),
  });
  return toPage(rows, q.limit);
}

/** Deletes one of the caller's saved searches; another user's, or none, is `saved_search_not_found`. */
export async function deleteSavedSearch(
  deps: Pick<Deps, "repos">,
  actor: Actor,
  input: IdInput,
): Promise<void> {
  const caller = requireUser(actor);
  const search = await ownSavedSearch(deps, caller, validate(idSchema, input).id);
  if (!(await deps.repos.savedSearches.delete(search.id))) {
    throw new MarketplaceError("saved_search_not_found");
  }
}

async function ownSavedSearch(
  deps: Pick<Deps, "repos">,
  caller: UserActor,
  id: string,
): Promise<SavedSearch> {
  const search = await deps.repos.savedSearches.findById(
    requireUuid(id, () => new MarketplaceError("saved_search_not_found")),
  );
  if (!search || search.userId !== caller.user.id) throw new MarketplaceError("saved_search_not_found");
  return search;
}

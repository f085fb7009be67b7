import * as v from "valibot";
import { SAVED_SEARCH_NAME_MAX_LENGTH } from "../domain/saved-search.js";
import { listingQuerySchema } from "./listing-query.js";
import { text } from "./storable-text.js";

const { q, search, category, minPrice, maxPrice } = listingQuerySchema.entries;

/**
 * savedSearches.create: GET /api/listings's search parameters, validated by that search's own
 * fields so a saved search holds nothing the search would refuse, and an optional name.
 */
export const createSavedSearchSchema = v.object({
  q,
  search,
  category,
  minPrice,
  maxPrice,
  name: v.optional(
    v.pipe(
      text,
      v.trim(),
      v.maxLength(SAVED_SEARCH_NAME_MAX_LENGTH, `must be at most ${SAVED_SEARCH_NAME_MAX_LENGTH} characters`),
    ),
  ),
});
export type CreateSavedSearchInput = v.InferInput<typeof createSavedSearchSchema>;

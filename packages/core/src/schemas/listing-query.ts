import * as v from "valibot";
import { CATEGORY_VALUES } from "../domain/category.js";
import { QUERY_MAX_LENGTH, QUERY_MAX_WORDS, searchWords } from "../domain/full-text.js";
import { PAGE } from "../domain/limits.js";
import { LISTING_SORTS } from "../domain/listing-sort.js";
import { cursor, limit, uuid } from "./fields.js";
import { text } from "./storable-text.js";

/**
 * A price bound: a finite number >= 0, or its decimal text (a query string's,
 * which has no sign). The minimum sits inside the number's branch, where the
 * OpenAPI document shows it as `minimum: 0`.
 */
const priceBound = v.optional(
  v.union(
    [
      v.pipe(v.number(), v.finite("must be a number"), v.minValue(0, "must be at least 0")),
      v.pipe(v.string(), v.regex(/^\d{1,15}(\.\d{1,6})?$/, "must be a number"), v.transform(Number)),
    ],
    "must be a number",
  ),
);

/** Full-text words: bounded in length and in words, so one query costs a bounded number of lookups. */
const fullText = v.optional(
  v.pipe(
    text,
    v.maxLength(QUERY_MAX_LENGTH, `must be at most ${QUERY_MAX_LENGTH} characters`),
    v.check((q) => searchWords(q).length <= QUERY_MAX_WORDS, `must have at most ${QUERY_MAX_WORDS} words`),
  ),
);

/** listings.search. */
export const listingQuerySchema = v.object({
  limit: limit(PAGE.defaultLimit),
  category: v.optional(
    v.picklist([...CATEGORY_VALUES, "all"], `must be all or one of ${CATEGORY_VALUES.join(", ")}`),
  ),
  search: v.optional(v.pipe(text, v.maxLength(200, "must be at most 200 characters"))),
  q: fullText,
  minPrice: priceBound,
  maxPrice: priceBound,
  sort: v.optional(v.picklist(LISTING_SORTS, `must be one of ${LISTING_SORTS.join(", ")}`)),
  facets: v.optional(v.picklist(["category"], "must be category")),
  userId: v.optional(uuid),
  status: v.optional(
    v.picklist(["active", "paused", "expired", "all"], "must be active, paused, expired or all"),
    "active",
  ),
  cursor: v.optional(cursor),
});
export type ListingQueryInput = v.InferInput<typeof listingQuerySchema>;

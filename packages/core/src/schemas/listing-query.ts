import * as v from "valibot";
import { CATEGORY_VALUES } from "../domain/category.js";
import { PAGE } from "../domain/limits.js";
import { cursor, limit, uuid } from "./fields.js";
import { text } from "./storable-text.js";

/** listings.search. */
export const listingQuerySchema = v.object({
  limit: limit(PAGE.defaultLimit),
  category: v.optional(v.picklist([...CATEGORY_VALUES, "all"], "must be a category or all")),
  search: v.optional(v.pipe(text, v.maxLength(200, "must be at most 200 characters"))),
  userId: v.optional(uuid),
  status: v.optional(
    v.picklist(["active", "paused", "expired", "all"], "must be active, paused, expired or all"),
    "active",
  ),
  cursor: v.optional(cursor),
});
export type ListingQueryInput = v.InferInput<typeof listingQuerySchema>;

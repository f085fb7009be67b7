import { CATEGORY_VALUES, type SavedSearch } from "@psm/core";
import * as v from "valibot";
import { iso } from "./presenters.js";
import { about, categories, instant, named, referenced, uuid } from "./wire-fields.js";

/** The wire of saved searches (decisions.md 1.3.0 "Saved searches"). */
export const SavedSearchSchema = named(
  "SavedSearch",
  v.object({
    id: uuid("The saved search's id (a UUID)."),
    name: about("Its name: the one given, or its criteria in brief.", v.string()),
    q: about("Words of GET /api/listings's q, or null.", v.nullable(v.string())),
    search: about("GET /api/listings's title substring, or null.", v.nullable(v.string())),
    category: about(`${categories} Null for every category.`, v.nullable(v.picklist(CATEGORY_VALUES))),
    min_price: about("The lowest price, inclusive, or null.", v.nullable(v.number())),
    max_price: about("The highest price, inclusive, or null.", v.nullable(v.number())),
    created_at: instant("When it was saved"),
  }),
);

/** POST /api/saved-searches. */
export const SavedSearchAnswer = v.object({
  saved_search: referenced("The saved search.", SavedSearchSchema),
});

/** A saved search as the wire shows it. */
export function presentSavedSearch(search: SavedSearch) {
  return {
    id: search.id,
    name: search.name,
    q: search.q,
    search: search.search,
    category: search.category,
    min_price: search.minPrice,
    max_price: search.maxPrice,
    created_at: iso(search.createdAt),
  };
}

import { createSavedSearchSchema, MAX_SAVED_SEARCHES_PER_USER, pageQuerySchema } from "@psm/core";
import { defineOperation } from "../operation.js";
import { presentSavedSearch, SavedSearchAnswer, SavedSearchSchema } from "../wire-saved-searches.js";
import { pageOf, SuccessSchema } from "../wire-schemas.js";
import { LISTING_QUERY, PAGE_QUERY } from "./descriptions.js";

const tag = "saved_searches";

/** /api/saved-searches: searches kept to be told of new listings that match them. */
export const savedSearchOperations = [
  defineOperation({
    name: "list_saved_searches",
    tool: 32,
    method: "GET",
    path: "/api/saved-searches",
    auth: "key-or-jwt",
    scope: "saved_searches:manage",
    rate: "read",
    private: "always",
    tag,
    summary: "List your saved searches",
    description: "Your saved searches, newest first: what you are told about when a new listing matches.",
    useWhen: "to see which searches the caller follows, or to find the id of one to delete",
    input: { schema: pageQuerySchema, from: "query", describe: PAGE_QUERY },
    ok: { status: 200, schema: pageOf("saved_searches", SavedSearchSchema) },
    handle: async ({ m, actor, command }) => {
      const page = await m.savedSearches.list(actor, command);
      return {
        saved_searches: page.items.map(presentSavedSearch),
        count: page.items.length,
        next_cursor: page.nextCursor,
      };
    },
  }),
  defineOperation({
    name: "create_saved_search",
    tool: 33,
    method: "POST",
    path: "/api/saved-searches",
    auth: "key-or-jwt",
    scope: "saved_searches:manage",
    rate: "write",
    private: "always",
    tag,
    summary: "Save a search",
    useWhen:
      "when the caller wants to hear of listings published later that match a search (a saved_search.matched event, and a mail if they asked for one), rather than polling search_listings",
    description:
      "Keep a listing search to be told when a new listing matches it, instead of searching again and again: " +
      "use it when someone wants to hear of services not offered yet. It takes search_listings' parameters " +
      "(q, search, category, min_price, max_price; at least one) and matches exactly as that search would. " +
      "A listing created or made active again that matches, and is not your own, gives you a " +
      "saved_search.matched event (GET /api/events, webhooks) once, and a mail as your notification settings " +
      `say (saved_search_mail). At most ${MAX_SAVED_SEARCHES_PER_USER} per user.`,
    input: {
      schema: createSavedSearchSchema,
      from: "body",
      ref: "CreateSavedSearch",
      describe: {
        q: LISTING_QUERY.q,
        search: LISTING_QUERY.search,
        category: LISTING_QUERY.category,
        min_price: LISTING_QUERY.min_price,
        max_price: LISTING_QUERY.max_price,
        name: "A name for yourself, at most 100 characters; default: the criteria in brief.",
      },
      example: { q: "penetration test", category: "cybersecurity", max_price: 8000 },
    },
    ok: { status: 201, schema: SavedSearchAnswer },
    errors: [403],
    handle: async ({ m, actor, command }) => ({
      saved_search: presentSavedSearch(await m.savedSearches.create(actor, command)),
    }),
  }),
  defineOperation({
    name: "delete_saved_search",
    tool: 34,
    method: "DELETE",
    path: "/api/saved-searches/{id}",
    auth: "key-or-jwt",
    scope: "saved_searches:manage",
    rate: "write",
    private: "always",
    tag,
    summary: "Delete a saved search",
    description: "Stop being told about a saved search's new matches; another user's is 404.",
    useWhen: "when the caller no longer wants to hear of a search's new matches",
    input: { path: { id: "id" } },
    ok: { status: 200, schema: SuccessSchema },
    errors: [404],
    handle: async ({ m, actor, command }) => {
      await m.savedSearches.delete(actor, command);
      return { success: true };
    },
  }),
];

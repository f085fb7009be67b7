import { type Listing, listingPatchSchema, listingQuerySchema, newListingSchema } from "@psm/core";
import { defineOperation } from "../operation.js";
import { presentListing } from "../presenters.js";
import { CreatedListingAnswer, ListingAnswer, ListingPage, SuccessSchema } from "../wire-schemas.js";
import { LISTING_FIELDS, LISTING_QUERY, NEW_LISTING_EXAMPLE } from "./descriptions.js";

const tag = "listings";
const byId = { id: "id" } as const;
const shown = (now: Date) => (listing: Listing) => presentListing(listing, now);

/** /api/listings: search, create, get, edit, delete, count a view. */
export const listingOperations = [
  defineOperation({
    name: "search_listings",
    cacheable: true,
    etag: true,
    tool: 2,
    useWhen:
      "to find services: words in q, a category, a price range or an author; follow next_cursor for more; prefer it to admin_list_posts unless you need paused or expired listings of others",
    method: "GET",
    path: "/api/listings",
    auth: "public",
    rate: "read",
    tag,
    summary: "Search listings",
    description:
      "Search active listings by words in title and description (q: stemmed, accent-insensitive, every word required), category, price range, title substring and author; sorted newest first, by relevance (default with q) or by price; cursor-paged; optionally with counts per category (facets=category).",
    input: { schema: listingQuerySchema, from: "query", describe: LISTING_QUERY },
    ok: { status: 200, schema: ListingPage },
    errors: [403],
    handle: async ({ m, actor, command }) => {
      const page = await m.listings.search(actor, command);
      const facets = page.facets
        ? { facets: { category: page.facets.category.counts }, facets_capped: page.facets.category.capped }
        : {};
      return {
        items: page.items.map(shown(m.now())),
        count: page.items.length,
        next_cursor: page.nextCursor,
        ...facets,
      };
    },
  }),
  defineOperation({
    name: "create_listing",
    tool: 5,
    useWhen:
      "to publish a service for the caller, after get_listing_limit says a slot is free (or to publish a draft_listing_from_document draft)",
    method: "POST",
    path: "/api/listings",
    auth: "key-or-jwt",
    scope: "listings:write",
    rate: "write",
    tag,
    summary: "Create a listing",
    description: "Publish a listing within the author's slots.",
    input: {
      schema: newListingSchema,
      from: "body",
      ref: "NewListing",
      describe: LISTING_FIELDS,
      example: NEW_LISTING_EXAMPLE,
    },
    ok: { status: 201, schema: CreatedListingAnswer },
    errors: [403],
    handle: async ({ m, actor, command }) => {
      const listing = await m.listings.create(actor, command);
      return { message: "Listing created", listing: presentListing(listing, m.now()) };
    },
  }),
  defineOperation({
    name: "get_listing",
    cacheable: true,
    etag: true,
    tool: 3,
    useWhen: "when you have a listing's id (from a search or a message) and need all of it",
    method: "GET",
    path: "/api/listings/{id}",
    auth: "public",
    rate: "read",
    tag,
    summary: "Get a listing",
    description: "One listing, whatever its status.",
    input: { path: byId },
    ok: { status: 200, schema: ListingAnswer },
    errors: [404],
    handle: async ({ m, command }) => ({ listing: presentListing(await m.listings.get(command), m.now()) }),
  }),
  defineOperation({
    name: "update_listing",
    tool: 6,
    useWhen:
      "to change some fields of the caller's listing, or to pause (status paused) or reactivate it; send only the fields to change",
    method: "PATCH",
    path: "/api/listings/{id}",
    auth: "key-or-jwt",
    scope: "listings:write",
    rate: "write",
    tag,
    summary: "Edit a listing",
    description: "Edit or pause a listing (author or admin).",
    input: {
      schema: listingPatchSchema,
      from: "body",
      path: byId,
      ref: "ListingPatch",
      describe: LISTING_FIELDS,
      example: { price: 1800, status: "paused" },
    },
    ok: { status: 200, schema: ListingAnswer },
    errors: [403, 404],
    handle: async ({ m, actor, command }) => ({
      listing: presentListing(await m.listings.update(actor, command), m.now()),
    }),
  }),
  defineOperation({
    name: "delete_listing",
    tool: 7,
    useWhen: "only when the caller wants the listing gone for good; pausing with update_listing keeps it",
    method: "DELETE",
    path: "/api/listings/{id}",
    auth: "key-or-jwt",
    scope: "listings:write",
    rate: "write",
    tag,
    summary: "Delete a listing",
    description: "Delete a listing (author or admin).",
    input: { path: byId },
    ok: { status: 200, schema: SuccessSchema },
    errors: [403, 404],
    handle: async ({ m, actor, command }) => {
      await m.listings.delete(actor, command);
      return { success: true };
    },
  }),
  defineOperation({
    name: "record_view",
    method: "POST",
    path: "/api/listings/{id}/view",
    auth: "public",
    rate: "write",
    tag,
    summary: "Count a view",
    description: "Count one view.",
    input: { path: byId },
    ok: { status: 200, schema: SuccessSchema },
    errors: [404],
    handle: async ({ m, command }) => {
      await m.listings.recordView(command);
      return { success: true };
    },
  }),
];

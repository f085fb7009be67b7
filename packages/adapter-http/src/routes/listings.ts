import {
  type Listing,
  listingPatchSchema,
  listingQuerySchema,
  MarketplaceError,
  newListingSchema,
} from "@psm/core";
import { Hono } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../env.js";
import { presentListing } from "../presenters.js";
import { operation, type RouteKit } from "../route-kit.js";
import { pathId, query, queryOf } from "../validation.js";
import { ListingSchema, pageOf, SuccessSchema } from "../wire-schemas.js";

const tag = "listings";

/** /api/listings: search, create, get, edit, delete, count a view. */
export function listingRoutes(kit: RouteKit): Hono<AppEnv> {
  const { marketplace: m } = kit;
  const present = (listing: Listing) => presentListing(listing, m.now());
  const app = new Hono<AppEnv>();

  app.get(
    "/",
    operation(kit, {
      capability: "search_listings",
      rate: "read",
      tag,
      summary: "Search listings",
      ok: { 200: pageOf("items", ListingSchema) },
      errors: [400, 403],
    }),
    query(listingQuerySchema),
    async (c) => {
      const page = await m.listings.search(c.get("actor"), queryOf(c));
      return c.json({
        items: page.items.map(present),
        count: page.items.length,
        next_cursor: page.nextCursor,
      });
    },
  );

  app.post(
    "/",
    operation(kit, {
      capability: "create_listing",
      rate: "write",
      tag,
      summary: "Create a listing",
      ok: { 201: v.object({ message: v.string(), listing: ListingSchema }) },
      errors: [403],
      body: { schema: newListingSchema, name: "NewListing" },
    }),
    async (c) => {
      const listing = await m.listings.create(c.get("actor"), c.get("body"));
      return c.json({ message: "Listing created", listing: present(listing) }, 201);
    },
  );

  app.get(
    "/:id",
    operation(kit, {
      capability: "get_listing",
      rate: "read",
      tag,
      summary: "Get a listing",
      ok: { 200: v.object({ listing: ListingSchema }) },
      errors: [404],
    }),
    pathId(() => new MarketplaceError("listing_not_found")),
    async (c) => c.json({ listing: present(await m.listings.get(c.req.param("id"))) }),
  );

  app.patch(
    "/:id",
    operation(kit, {
      capability: "update_listing",
      rate: "write",
      tag,
      summary: "Edit a listing",
      ok: { 200: v.object({ listing: ListingSchema }) },
      errors: [400, 403, 404],
      body: { schema: listingPatchSchema, name: "ListingPatch" },
    }),
    pathId(),
    async (c) => {
      const listing = await m.listings.update(c.get("actor"), c.req.param("id"), c.get("body"));
      return c.json({ listing: present(listing) });
    },
  );

  app.delete(
    "/:id",
    operation(kit, {
      capability: "delete_listing",
      rate: "write",
      tag,
      summary: "Delete a listing",
      ok: { 200: SuccessSchema },
      errors: [400, 403, 404],
    }),
    pathId(),
    async (c) => {
      await m.listings.delete(c.get("actor"), c.req.param("id"));
      return c.json({ success: true });
    },
  );

  app.post(
    "/:id/view",
    operation(kit, {
      capability: "record_view",
      rate: "write",
      tag,
      summary: "Count a view",
      ok: { 200: SuccessSchema },
      errors: [400, 404],
    }),
    pathId(),
    async (c) => {
      await m.listings.recordView(c.req.param("id"));
      return c.json({ success: true });
    },
  );

  return app;
}

import { pageQuerySchema, syncProfileSchema, userIdSchema } from "@psm/core";
import { Hono } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../env.js";
import { presentLimit, presentProfile } from "../presenters.js";
import { operation, type RouteKit } from "../route-kit.js";
import { query, queryOf } from "../validation.js";
import { ListingLimitSchema, ProfileSchema, pageOf } from "../wire-schemas.js";

const tag = "profiles";

/** /api/profiles: list, sync, admin check, listing limit. */
export function profileRoutes(kit: RouteKit): Hono<AppEnv> {
  const { marketplace: m } = kit;
  const app = new Hono<AppEnv>();

  app.get(
    "/",
    operation(kit, {
      capability: "list_profiles",
      rate: "read",
      tag,
      summary: "List profiles",
      ok: { 200: pageOf("profiles", ProfileSchema) },
      errors: [400],
    }),
    query(pageQuerySchema),
    async (c) => {
      const page = await m.profiles.list(c.get("actor"), queryOf(c));
      return c.json({
        profiles: page.items.map(presentProfile),
        count: page.items.length,
        next_cursor: page.nextCursor,
      });
    },
  );

  app.post(
    "/sync",
    operation(kit, {
      capability: "sync_profile",
      rate: "write",
      tag,
      summary: "Create or update a profile",
      ok: { 200: v.object({ success: v.literal(true), profile: ProfileSchema }) },
      errors: [403],
      body: { schema: syncProfileSchema, name: "SyncProfile" },
    }),
    async (c) => {
      const profile = await m.profiles.sync(c.get("actor"), c.get("body"));
      return c.json({ success: true, profile: presentProfile(profile) });
    },
  );

  app.get(
    "/admin",
    operation(kit, {
      capability: "admin_check",
      rate: "read",
      tag,
      summary: "Whether a user is an admin",
      ok: { 200: v.object({ is_admin: v.boolean() }) },
      errors: [400],
    }),
    query(userIdSchema),
    async (c) => c.json({ is_admin: await m.profiles.isAdmin(queryOf(c)) }),
  );

  app.get(
    "/limit",
    operation(kit, {
      capability: "listing_limit",
      rate: "read",
      tag,
      summary: "A user's listing slots",
      ok: { 200: ListingLimitSchema },
      errors: [400, 404],
    }),
    query(userIdSchema),
    async (c) => c.json(presentLimit(await m.profiles.getLimit(queryOf(c)))),
  );

  app.post(
    "/limit",
    operation(kit, {
      capability: "listing_limit_compat",
      rate: "write",
      tag,
      summary: "A user's listing slots (compatibility POST; moves nothing)",
      ok: { 200: ListingLimitSchema },
      errors: [403, 404],
      body: { schema: userIdSchema, name: "UserId" },
    }),
    async (c) => c.json(presentLimit(await m.profiles.postLimit(c.get("actor"), c.get("body")))),
  );

  return app;
}

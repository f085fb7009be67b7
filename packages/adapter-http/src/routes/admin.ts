import { adminDeletePostSchema, adminDeleteUserSchema, pageQuerySchema, validate } from "@psm/core";
import { Hono } from "hono";
import type { AppEnv } from "../env.js";
import { presentListing, presentUser } from "../presenters.js";
import { operation, type RouteKit } from "../route-kit.js";
import { pathId, query, queryOf } from "../validation.js";
import { ListingSchema, pageOf, SuccessSchema, UserSchema } from "../wire-schemas.js";

const tag = "admin";

/** /api/admin: every listing and user, and their deletion (admin JWT only). */
export function adminRoutes(kit: RouteKit): Hono<AppEnv> {
  const { marketplace: m } = kit;
  const app = new Hono<AppEnv>();
  const deleted = { 200: SuccessSchema };

  app.get(
    "/posts",
    operation(kit, {
      capability: "admin_list_posts",
      rate: "read",
      tag,
      summary: "All listings, any status",
      ok: { 200: pageOf("posts", ListingSchema) },
      errors: [400, 403],
    }),
    query(pageQuerySchema),
    async (c) => {
      const page = await m.admin.listPosts(c.get("actor"), queryOf(c));
      const now = m.now();
      const posts = page.items.map((listing) => presentListing(listing, now));
      return c.json({ posts, count: posts.length, next_cursor: page.nextCursor });
    },
  );

  app.delete(
    "/posts",
    operation(kit, {
      capability: "admin_delete_post",
      rate: "write",
      tag,
      summary: "Delete a listing (body)",
      ok: deleted,
      errors: [403, 404],
      body: { schema: adminDeletePostSchema, name: "AdminDeletePost" },
    }),
    async (c) => {
      const { post_id } = validate(adminDeletePostSchema, c.get("body"));
      await m.admin.deletePost(c.get("actor"), post_id);
      return c.json({ success: true });
    },
  );

  app.delete(
    "/posts/:id",
    operation(kit, {
      capability: "admin_delete_post_by_id",
      rate: "write",
      tag,
      summary: "Delete a listing",
      ok: deleted,
      errors: [400, 403, 404],
    }),
    pathId(),
    async (c) => {
      await m.admin.deletePost(c.get("actor"), c.req.param("id"));
      return c.json({ success: true });
    },
  );

  app.get(
    "/users",
    operation(kit, {
      capability: "admin_list_users",
      rate: "read",
      tag,
      summary: "All users",
      ok: { 200: pageOf("users", UserSchema) },
      errors: [400, 403],
    }),
    query(pageQuerySchema),
    async (c) => {
      const page = await m.admin.listUsers(c.get("actor"), queryOf(c));
      return c.json({
        users: page.items.map(presentUser),
        count: page.items.length,
        next_cursor: page.nextCursor,
      });
    },
  );

  app.delete(
    "/users",
    operation(kit, {
      capability: "admin_delete_user",
      rate: "write",
      tag,
      summary: "Delete a user (body)",
      ok: deleted,
      errors: [403, 404],
      body: { schema: adminDeleteUserSchema, name: "AdminDeleteUser" },
    }),
    async (c) => {
      const { user_id } = validate(adminDeleteUserSchema, c.get("body"));
      await m.admin.deleteUser(c.get("actor"), user_id);
      return c.json({ success: true });
    },
  );

  app.delete(
    "/users/:id",
    operation(kit, {
      capability: "admin_delete_user_by_id",
      rate: "write",
      tag,
      summary: "Delete a user",
      ok: deleted,
      errors: [400, 403, 404],
    }),
    pathId(),
    async (c) => {
      await m.admin.deleteUser(c.get("actor"), c.req.param("id"));
      return c.json({ success: true });
    },
  );

  return app;
}

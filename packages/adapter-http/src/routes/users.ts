import { updateUserSchema } from "@psm/core";
import { Hono } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../env.js";
import { presentUser } from "../presenters.js";
import { operation, type RouteKit } from "../route-kit.js";
import { UserSchema } from "../wire-schemas.js";

/** /api/users: the caller's display name (JWT only). */
export function userRoutes(kit: RouteKit): Hono<AppEnv> {
  const { marketplace: m } = kit;
  const app = new Hono<AppEnv>();

  app.put(
    "/update",
    operation(kit, {
      capability: "update_user",
      rate: "write",
      tag: "users",
      summary: "Change the caller's display name",
      ok: { 200: v.object({ success: v.literal(true), user: UserSchema }) },
      body: { schema: updateUserSchema, name: "UpdateUser" },
    }),
    async (c) => {
      const user = await m.users.updateDisplayName(c.get("actor"), c.get("body"));
      return c.json({ success: true, user: presentUser(user) });
    },
  );

  return app;
}

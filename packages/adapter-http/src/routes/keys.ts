import { createApiKeySchema, isAdmin, pageQuerySchema } from "@psm/core";
import { Hono } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../env.js";
import { presentApiKey, presentCreatedApiKey } from "../presenters.js";
import { operation, type RouteKit } from "../route-kit.js";
import { pathId, query, queryOf } from "../validation.js";
import { ApiKeySchema, CreatedApiKeySchema, pageOf, SuccessSchema } from "../wire-schemas.js";

const tag = "keys";

/**
 * Said to an admin who creates a key: 1.0.2 has a key grant its user's
 * permissions, so an admin's key is an admin everywhere but /api/admin.
 */
export const ADMIN_KEY_WARNING =
  "This key carries your admin rights outside /api/admin: whoever holds it can delete any listing " +
  "and read any user's messages. Keep it as you keep your password, and deactivate it when unused.";

const CreatedKeyAnswer = v.object({
  key: CreatedApiKeySchema,
  warning: v.optional(
    v.pipe(
      v.string(),
      v.description("Present when the caller is an admin: what the key can do beyond the caller's own data."),
    ),
  ),
});

/** /api/keys: list, create (value shown once), deactivate. */
export function keyRoutes(kit: RouteKit): Hono<AppEnv> {
  const { marketplace: m } = kit;
  const app = new Hono<AppEnv>();

  app.get(
    "/",
    operation(kit, {
      capability: "list_api_keys",
      rate: "read",
      tag,
      summary: "List API keys",
      ok: { 200: pageOf("keys", ApiKeySchema) },
      errors: [400],
    }),
    query(pageQuerySchema),
    async (c) => {
      const page = await m.apiKeys.list(c.get("actor"), queryOf(c));
      return c.json({
        keys: page.items.map(presentApiKey),
        count: page.items.length,
        next_cursor: page.nextCursor,
      });
    },
  );

  app.post(
    "/",
    operation(kit, {
      capability: "create_api_key",
      rate: "write",
      tag,
      summary: "Create an API key",
      ok: { 200: CreatedKeyAnswer },
      body: { schema: createApiKeySchema, name: "CreateApiKey", required: false },
    }),
    // The body is optional: an empty one takes the default name.
    async (c) => {
      const actor = c.get("actor");
      const created = await m.apiKeys.create(actor, c.get("body"));
      const key = presentCreatedApiKey(created);
      return c.json(isAdmin(actor) ? { key, warning: ADMIN_KEY_WARNING } : { key });
    },
  );

  app.delete(
    "/:id",
    operation(kit, {
      capability: "deactivate_api_key",
      rate: "write",
      tag,
      summary: "Deactivate an API key",
      ok: { 200: SuccessSchema },
      errors: [400, 404],
    }),
    pathId(),
    async (c) => {
      await m.apiKeys.deactivate(c.get("actor"), c.req.param("id"));
      return c.json({ success: true });
    },
  );

  return app;
}

import { createApiKeySchema, pageQuerySchema } from "@psm/core";
import { Hono } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../env.js";
import { presentApiKey, presentCreatedApiKey } from "../presenters.js";
import { operation, type RouteKit } from "../route-kit.js";
import { pathId, query, queryOf } from "../validation.js";
import { ApiKeySchema, CreatedApiKeySchema, pageOf, SuccessSchema } from "../wire-schemas.js";

const tag = "keys";

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
      ok: { 200: v.object({ key: CreatedApiKeySchema }) },
      body: { schema: createApiKeySchema, name: "CreateApiKey", required: false },
    }),
    // The body is optional: an empty one takes the default name.
    async (c) => {
      const created = await m.apiKeys.create(c.get("actor"), c.get("body"));
      return c.json({ key: presentCreatedApiKey(created) });
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

import { Hono } from "hono";
import type { AppEnv } from "../env.js";
import { operation, type RouteKit } from "../route-kit.js";
import { CapabilitiesSchema } from "../wire-schemas.js";

/** /api/capabilities: core's capabilities document, as is. */
export function metaRoutes(kit: RouteKit): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get(
    "/capabilities",
    operation(kit, {
      capability: "capabilities",
      rate: "read",
      tag: "meta",
      summary: "Capabilities document",
      ok: { 200: CapabilitiesSchema },
    }),
    (c) => c.json(kit.marketplace.meta.capabilities()),
  );
  return app;
}

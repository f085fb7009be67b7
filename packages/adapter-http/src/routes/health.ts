import { describeError, errorResponse } from "@psm/host";
import { HealthSchema, ReadySchema } from "@psm/operations";
import { Hono } from "hono";
import type { AppEnv } from "../env.js";
import { operation, type RouteKit } from "../route-kit.js";

/** /healthz (the process answers) and /readyz (its dependencies answer). Never rate limited. */
export function healthRoutes(kit: RouteKit): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const tag = "health";

  app.get(
    "/healthz",
    operation(kit, {
      rate: null,
      tag,
      id: "healthz",
      summary: "Liveness",
      ok: { 200: HealthSchema },
    }),
    (c) => c.json({ status: "ok" }),
  );

  app.get(
    "/readyz",
    operation(kit, {
      rate: null,
      tag,
      id: "readyz",
      summary: "Readiness",
      description: "200 once the database answers; 503 otherwise.",
      ok: { 200: ReadySchema },
      errors: [503],
    }),
    async (c) => {
      const ready = await kit.config.ready().catch((err: unknown) => {
        kit.config.logger.warn(
          { reqId: c.get("requestId"), err: describeError(err) },
          "readiness check failed",
        );
        return false;
      });
      if (!ready) return errorResponse(c, "service_unavailable", undefined, 5);
      return c.json({ status: "ready" });
    },
  );

  return app;
}

import type { MiddlewareHandler } from "hono";
import type { HostEnv } from "../env.js";
import type { Logger } from "./logger.js";

/**
 * One structured line per request. Only the path is logged, never the query
 * string (the reset link carries its token there), bodies or headers. `ip` is
 * the client address as clientIp() resolved it under TRUST_PROXY (the one
 * rate limits count); clientIp() runs first, so every line has it.
 */
export function accessLog(logger: Logger): MiddlewareHandler<HostEnv> {
  return async (c, next) => {
    const start = performance.now();
    await next();
    const actor = c.get("actor");
    logger.info(
      {
        reqId: c.get("requestId"),
        method: c.req.method,
        path: c.req.path,
        ip: c.get("clientIp"),
        status: c.res.status,
        ms: Math.round((performance.now() - start) * 10) / 10,
        ...(actor?.kind === "user" ? { userId: actor.user.id } : {}),
      },
      "request",
    );
  };
}

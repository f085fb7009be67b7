import type { MiddlewareHandler } from "hono";

/** What requestId() leaves in the context. */
export interface RequestIdVariables {
  /** The request id echoed in X-Request-Id and the logs. */
  requestId: string;
}

const VALID = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * X-Request-Id on every response: a valid incoming id ([A-Za-z0-9._-]{1,128})
 * is echoed so a caller can correlate, anything else is replaced by a UUID.
 * Written here rather than with hono/request-id, whose header check allows `=`
 * and not `.`, and whose wrapper cost a few % of a cached read.
 */
export function requestId(): MiddlewareHandler<{ Variables: RequestIdVariables }> {
  return async (c, next) => {
    const incoming = c.req.header("x-request-id");
    const id = incoming !== undefined && VALID.test(incoming) ? incoming : crypto.randomUUID();
    c.set("requestId", id);
    c.header("X-Request-Id", id);
    await next();
  };
}

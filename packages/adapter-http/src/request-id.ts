import type { MiddlewareHandler } from "hono";
import { requestId as honoRequestId } from "hono/request-id";

/** What requestId() leaves in the context. */
export interface RequestIdVariables {
  /** The request id echoed in X-Request-Id and the logs. */
  requestId: string;
}

const VALID = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * X-Request-Id on every response: a valid incoming id ([A-Za-z0-9._-]{1,128})
 * is echoed so a caller can correlate, anything else is replaced by a UUID.
 * hono/request-id's own header check allows `=` and not `.`, so the header is
 * read here and the middleware only generates and stores the id.
 */
export function requestId(): MiddlewareHandler<{ Variables: RequestIdVariables }> {
  const generate = honoRequestId({
    headerName: "",
    generator: (c) => {
      const incoming = c.req.header("x-request-id");
      return incoming !== undefined && VALID.test(incoming) ? incoming : crypto.randomUUID();
    },
  });
  return (c, next) =>
    generate(c, async () => {
      c.header("X-Request-Id", c.get("requestId"));
      await next();
    });
}

import type { Context, MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import type { RequestIdVariables } from "./request-id.js";

/**
 * The labels of one answered request. Every value comes from a bounded set whatever the caller
 * sends: the method from a fixed list, the operation from the route table, the status from the
 * codes the server answers with. Never the raw path (hostile callers send unbounded ones), never
 * the caller.
 */
export interface RequestLabels {
  /** GET, HEAD, POST, PUT, PATCH, DELETE or OPTIONS; any other method is "OTHER". */
  method: string;
  /** The pattern of the route that answered ("/api/listings/:id"), or UNMATCHED_OPERATION. */
  operation: string;
  /** The answer's status code. */
  status: number;
}

/**
 * Told once per request when its answer is ready (headers, not the end of a streamed body), with
 * the seconds since the request reached the host. It must be cheap and must not throw: it runs on
 * every request of every surface, and what it throws is dropped.
 */
export type RequestEndHook = (labels: RequestLabels, seconds: number) => void;

/**
 * Runs a request inside whatever the tracer sets up around it (a span, made current for what the
 * request calls); `labels` reads what answered once `next` has settled.
 */
export type RequestTracer = (
  request: { method: string; requestId: string },
  next: () => Promise<void>,
  labels: () => RequestLabels,
) => Promise<void>;

/** Hands each request to `tracer`, after the request id is given (installed by createHost). */
export function requestTracing(tracer: RequestTracer): MiddlewareHandler<{ Variables: RequestIdVariables }> {
  return (c, next) =>
    tracer({ method: methodOf(c), requestId: c.get("requestId") }, next, () => ({
      method: methodOf(c),
      operation: operationOf(c),
      status: c.res.status,
    }));
}

/** The operation of a request no route of any surface took: unknown paths, 405s, preflights. */
export const UNMATCHED_OPERATION = "unmatched";

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** The request's method, or "OTHER" for any outside the fixed list. */
function methodOf(c: Context): string {
  return METHODS.has(c.req.method) ? c.req.method : "OTHER";
}

/**
 * The operation that answered: the pattern of the deepest route the request reached once every
 * handler ran. A wildcard pattern ("/*") is the edge's middleware or a catch-all, which means that
 * no route of an operation took the request: UNMATCHED_OPERATION.
 */
export function operationOf(c: Context): string {
  const pattern = routePath(c);
  return pattern === "" || pattern.endsWith("*") ? UNMATCHED_OPERATION : pattern;
}

/**
 * Times every request the host serves, whatever surface answers it, and tells `onEnd` its labels.
 * Installed first, so it covers the whole edge, errors included (the error mapper has answered
 * by the time `next` resolves). The cost per request is one clock read on each side and one call.
 */
export function requestMetrics(onEnd: RequestEndHook): MiddlewareHandler {
  return async (c, next) => {
    const start = performance.now();
    let status = 500;
    try {
      await next();
      status = c.res.status;
    } finally {
      try {
        onEnd({ method: methodOf(c), operation: operationOf(c), status }, (performance.now() - start) / 1000);
      } catch {
        // A recorder that fails must not change the answer.
      }
    }
  };
}

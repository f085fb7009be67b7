import type { Marketplace } from "@psm/core";
import { Hono } from "hono";
import { accessLog } from "./edge/access-log.js";
import { authenticate } from "./edge/authenticate.js";
import { clientIp, nodeSocketAddress, type SocketAddress } from "./edge/client-ip.js";
import { createErrorHandler, createNotFoundHandler } from "./edge/errors.js";
import type { Logger } from "./edge/logger.js";
import { methodIndex } from "./edge/method-not-allowed.js";
import { type RequestEndHook, type RequestTracer, requestMetrics, requestTracing } from "./edge/metrics.js";
import { type PrivatePath, privateAnswers } from "./edge/private-answers.js";
import { requestId } from "./edge/request-id.js";
import { corsPolicy, securityHeaders } from "./edge/security.js";
import type { HostEnv } from "./env.js";

/** A surface mounted under the host: the JSON API, the pages, MCP, or an embedder's own. */
export interface Surface {
  path: string;
  // biome-ignore lint/suspicious/noExplicitAny: any surface's own environment; it reads the variables it declares
  app: Hono<any>;
  /** Its paths whose answers may carry a secret or private data, relative to `path`: never stored by a cache. */
  private?: readonly PrivatePath[];
  /**
   * Resolves once the work it went on with after answering (a page's view written after the page)
   * is done: a server awaits it after its last request and before it closes storage.
   */
  settle?: () => Promise<void>;
}

/** The arguments of createHost. */
export interface HostOptions {
  marketplace: Marketplace;
  /** Allowed CORS origins, or "*". Credentials travel in headers, never cookies. */
  corsOrigins: string[] | "*";
  /** Proxies whose X-Forwarded-For is believed (TRUST_PROXY). */
  trustProxy?: readonly string[];
  /** How the peer's address is read; the Node socket's by default. */
  socketAddress?: SocketAddress;
  /** Where 500s are logged; silent by default. */
  logger?: Logger;
  /** Where the access log's line per request goes; `logger` by default (none without either). */
  accessLogger?: Logger;
  /** The surfaces, in the order their routes are tried. */
  surfaces: readonly Surface[];
  /**
   * Told of every answered request (method, route pattern or "unmatched", status) and its
   * seconds, whatever surface answered: the request metrics. None by default.
   */
  onRequestEnd?: RequestEndHook | undefined;
  /** Runs every request inside a trace (apps/server's OpenTelemetry, when configured). None by default. */
  traceRequest?: RequestTracer | undefined;
}

const silent: Logger = { info() {}, warn() {}, error() {} };

/**
 * The host of every surface: one Hono app that gives each request, whatever surface answers it,
 * its request id, client address, access-log line, security headers, CORS policy, private-answer
 * policy and caller, then tries the surfaces in order, and maps whatever they throw to the one
 * `{error, code}` answer (a surface with its own `onError`, the pages, answers its own). Order
 * matters: the request metrics (`onRequestEnd`), the request id, the client address and the log
 * wrap everything, errors included; CORS answers preflights before credentials are looked at;
 * no-store is decided before authentication can fail.
 */
export function createHost(options: HostOptions): Hono<HostEnv> {
  const { marketplace } = options;
  const app = new Hono<HostEnv>();
  if (options.onRequestEnd) app.use(requestMetrics(options.onRequestEnd));
  app.use(requestId());
  if (options.traceRequest) app.use(requestTracing(options.traceRequest));
  app.use(
    clientIp({
      trustProxy: options.trustProxy ?? [],
      socketAddress: options.socketAddress ?? nodeSocketAddress,
    }),
  );
  const access = options.accessLogger ?? options.logger;
  if (access) app.use(accessLog(access));
  app.use(securityHeaders());
  app.use(corsPolicy(options.corsOrigins));
  app.use(privateAnswers(marketplace.settings.securityMode, options.surfaces.flatMap(privatePathsOf)));
  app.use(authenticate(marketplace));
  for (const surface of options.surfaces) app.route(surface.path, surface.app);
  app.onError(createErrorHandler(options.logger ?? silent));
  app.notFound(createNotFoundHandler(methodIndex(() => app.routes)));
  return app;
}

/** A surface's private paths under its mount point. */
function privatePathsOf(surface: Surface): PrivatePath[] {
  const base = surface.path.replace(/\/+$/, "");
  return (surface.private ?? []).map((p) => ({ ...p, path: `${base}${p.path}` }));
}

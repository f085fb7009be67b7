import type { Marketplace } from "@psm/core";
import { Hono } from "hono";
import { accessLog } from "./access-log.js";
import { authenticate } from "./auth.js";
import { clientIp } from "./client-ip.js";
import { type HttpConfig, resolveConfig } from "./config.js";
import type { AppEnv } from "./env.js";
import { createErrorHandler, createNotFoundHandler } from "./errors.js";
import { methodIndex } from "./method-not-allowed.js";
import { apiOperations } from "./operations/index.js";
import { mountOperations } from "./registry/mount.js";
import { requestId } from "./request-id.js";
import type { RouteKit } from "./route-kit.js";
import { docsRoutes } from "./routes/docs.js";
import { healthRoutes } from "./routes/health.js";
import { resetPageRoutes } from "./routes/reset-page.js";
import { verifyEmailPageRoutes } from "./routes/verify-email-page.js";
import { corsPolicy, privateAnswers, securityHeaders } from "./security.js";
import { type Uploads, uploadGateOf } from "./uploads.js";

/** The arguments of createHttpApp. */
export interface CreateHttpAppOptions {
  marketplace: Marketplace;
  config: HttpConfig;
  /**
   * The host's upload gate, shared with the other surfaces that take documents (pages, MCP), or
   * bounds of a gate of the API's own besides the size (defaults suit production).
   */
  uploads?: Uploads;
  /**
   * Other surfaces of the same server (the web pages, the MCP endpoint), each
   * a Hono app mounted at `path` after the API. They run behind the same
   * request id, client address, access log, security headers and credential
   * check; their own routes win over nothing of the API's.
   */
  surfaces?: readonly Surface[];
}

/** A Hono app served beside the API (see CreateHttpAppOptions.surfaces). */
export interface Surface {
  path: string;
  // biome-ignore lint/suspicious/noExplicitAny: any surface's own environment; it reads the variables it declares
  app: Hono<any>;
}

/** The HTTP API of the marketplace as a Hono app: serve it with any Hono adapter, or call `app.request()`. */
export function createHttpApp({
  marketplace,
  config,
  uploads,
  surfaces = [],
}: CreateHttpAppOptions): Hono<AppEnv> {
  const resolved = resolveConfig(config);
  const kit: RouteKit = { marketplace, config: resolved };
  const app = new Hono<AppEnv>();

  // Order matters: the request id, the client address and the log wrap
  // everything, errors included; CORS answers preflights before credentials
  // are looked at; no-store is decided before authentication can fail.
  app.use(requestId());
  app.use(clientIp(resolved));
  app.use(accessLog(resolved.accessLogger));
  app.use(securityHeaders());
  app.use(corsPolicy(resolved.corsOrigins));
  app.use(privateAnswers(marketplace.settings.securityMode));
  app.use(authenticate(marketplace));

  // The JSON API, from the one registry (operations/index.ts); then pages, probes and the reference.
  mountOperations(app, apiOperations(resolved), marketplace, resolved, uploadGateOf(resolved, uploads));
  app.route("/", healthRoutes(kit));
  app.route("/", resetPageRoutes(kit));
  app.route("/", verifyEmailPageRoutes(kit));
  app.route(
    "/",
    docsRoutes(kit, () => app),
  );
  for (const surface of surfaces) app.route(surface.path, surface.app);

  app.onError(createErrorHandler(resolved.logger));
  app.notFound(createNotFoundHandler(methodIndex(() => app.routes)));
  return app;
}

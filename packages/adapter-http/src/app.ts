import type { Marketplace } from "@psm/core";
import { createHost, type Surface } from "@psm/host";
import { apiOperations, privatePaths } from "@psm/operations";
import { Hono } from "hono";
import { type HttpConfig, type ResolvedConfig, resolveConfig } from "./config.js";
import type { AppEnv } from "./env.js";
import { mountOperations } from "./registry/mount.js";
import type { RouteKit } from "./route-kit.js";
import { docsRoutes } from "./routes/docs.js";
import { healthRoutes } from "./routes/health.js";
import { type Uploads, uploadGateOf } from "./uploads.js";

export type { Surface };

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

/**
 * The JSON API of the marketplace under the host (request id, client address, access log,
 * headers, CORS, credentials and error mapping are the host's, for every surface): serve it with
 * any Hono adapter, or call `app.request()`. `surfaces` are mounted after the API, under the same
 * host.
 */
export function createHttpApp({
  marketplace,
  config,
  uploads,
  surfaces = [],
}: CreateHttpAppOptions): Hono<AppEnv> {
  const resolved = resolveConfig(config);
  const api = createApiSurface({ marketplace, config: resolved, uploads, app: () => host });
  // The host's app serves the API's routes, so its context carries the API's variables too.
  const host = createHost({
    marketplace,
    corsOrigins: resolved.corsOrigins,
    trustProxy: resolved.trustProxy,
    socketAddress: resolved.socketAddress,
    logger: resolved.logger,
    accessLogger: resolved.accessLogger,
    onRequestEnd: config.onRequestEnd,
    traceRequest: config.traceRequest,
    surfaces: [{ path: "/", app: api, private: privatePaths(apiOperations(resolved)) }, ...surfaces],
  }) as unknown as Hono<AppEnv>;
  return host;
}

/**
 * The JSON API as a surface: the registry's operations under /api, the probes and the reference
 * (/openapi.json, /docs), which describes every route of `app()`, the whole server it is mounted
 * in (the pages behind the mailed links are the web surface's).
 */
export function createApiSurface(options: {
  marketplace: Marketplace;
  config: ResolvedConfig;
  uploads?: Uploads | undefined;
  app: () => Hono<AppEnv>;
}): Hono<AppEnv> {
  const { marketplace, config } = options;
  const kit: RouteKit = { marketplace, config };
  const api = new Hono<AppEnv>();
  mountOperations(api, apiOperations(config), marketplace, config, uploadGateOf(config, options.uploads));
  api.route("/", healthRoutes(kit));
  api.route("/", docsRoutes(kit, options.app));
  return api;
}

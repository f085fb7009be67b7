import type { Marketplace } from "@psm/core";
import { Hono } from "hono";
import { accessLog } from "./access-log.js";
import { authenticate } from "./auth.js";
import { clientIp } from "./client-ip.js";
import { type HttpConfig, resolveConfig } from "./config.js";
import type { AppEnv } from "./env.js";
import { createErrorHandler, createNotFoundHandler } from "./errors.js";
import { methodIndex } from "./method-not-allowed.js";
import { requestId } from "./request-id.js";
import { createRouteKit } from "./route-kit.js";
import { adminRoutes } from "./routes/admin.js";
import { authRoutes } from "./routes/auth.js";
import { docsRoutes } from "./routes/docs.js";
import { documentRoutes } from "./routes/documents.js";
import { healthRoutes } from "./routes/health.js";
import { keyRoutes } from "./routes/keys.js";
import { listingRoutes } from "./routes/listings.js";
import { messageRoutes } from "./routes/messages.js";
import { metaRoutes } from "./routes/meta.js";
import { profileRoutes } from "./routes/profiles.js";
import { resetPageRoutes } from "./routes/reset-page.js";
import { userRoutes } from "./routes/users.js";
import { verifyEmailPageRoutes } from "./routes/verify-email-page.js";
import { corsPolicy, privateAnswers, securityHeaders } from "./security.js";

/** The arguments of createHttpApp. */
export interface CreateHttpAppOptions {
  marketplace: Marketplace;
  config: HttpConfig;
}

/** The HTTP API of the marketplace as a Hono app: serve it with any Hono adapter, or call `app.request()`. */
export function createHttpApp({ marketplace, config }: CreateHttpAppOptions): Hono<AppEnv> {
  const resolved = resolveConfig(config);
  const kit = createRouteKit(marketplace, resolved);
  const app = new Hono<AppEnv>();

  // Order matters: the request id, the client address and the log wrap
  // everything, errors included; CORS answers preflights before credentials
  // are looked at; no-store is decided before authentication can fail.
  app.use(requestId());
  app.use(clientIp(resolved));
  app.use(accessLog(resolved.logger));
  app.use(securityHeaders());
  app.use(corsPolicy(resolved.corsOrigins));
  app.use(privateAnswers(marketplace.settings.securityMode));
  app.use(authenticate(marketplace));

  app.route("/api", metaRoutes(kit));
  app.route("/api/listings", listingRoutes(kit));
  app.route("/api/auth", authRoutes(kit));
  app.route("/api/keys", keyRoutes(kit));
  app.route("/api/messages", messageRoutes(kit));
  app.route("/api/profiles", profileRoutes(kit));
  app.route("/api/users", userRoutes(kit));
  app.route("/api", documentRoutes(kit));
  app.route("/api/admin", adminRoutes(kit));
  app.route("/", healthRoutes(kit));
  app.route("/", resetPageRoutes(kit));
  app.route("/", verifyEmailPageRoutes(kit));
  app.route(
    "/",
    docsRoutes(kit, () => app),
  );

  app.onError(createErrorHandler(resolved.logger));
  app.notFound(createNotFoundHandler(methodIndex(() => app.routes)));
  return app;
}

import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import { NONCE, secureHeaders } from "hono/secure-headers";
import type { AppEnv } from "./env.js";

/**
 * Security headers for JSON, /docs and the reset page alike. Scripts only from
 * this origin or with the per-request nonce (/docs' init script); inline styles
 * are allowed because the reset page and the reference's bundle use them.
 */
export function securityHeaders(): MiddlewareHandler<AppEnv> {
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", NONCE],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", "data:", "blob:"],
      fontSrc: ["'self'", "data:"],
      connectSrc: ["'self'"],
      workerSrc: ["'self'", "blob:"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
    xFrameOptions: "DENY",
    removePoweredBy: true,
  });
}

/** Headers a browser caller may read: correlation and rate-limit state. */
export const EXPOSED_HEADERS = [
  "X-Request-Id",
  "Retry-After",
  "RateLimit",
  "RateLimit-Policy",
  "RateLimit-Limit",
  "RateLimit-Remaining",
  "RateLimit-Reset",
];

/** CORS per the configured origins; credentials are headers, never cookies, so none are allowed. */
export function corsPolicy(origins: string[] | "*"): MiddlewareHandler<AppEnv> {
  return cors({
    origin: origins === "*" ? "*" : origins,
    allowMethods: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
    allowHeaders: ["Content-Type", "Authorization", "X-API-Key", "X-Request-Id"],
    exposeHeaders: EXPOSED_HEADERS,
    maxAge: 600,
    credentials: false,
  });
}

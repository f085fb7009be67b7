import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";

/** What securityHeaders() leaves in the context. */
export interface CspVariables {
  /** The CSP nonce of the /docs page's inline script. */
  cspNonce?: string;
}

type SecurityEnv = { Variables: CspVariables };

/**
 * The Content-Security-Policy of the answers outside /api that set none of
 * their own (/docs, errors; the pages set a stricter one). Scripts only from
 * this origin, or with the per-request nonce /docs gives its init script;
 * inline styles are allowed because the reference's bundle uses them.
 */
export function contentSecurityPolicy(nonce?: string): string {
  const script = nonce === undefined ? "'self'" : `'self' 'nonce-${nonce}'`;
  return [
    "default-src 'self'",
    `script-src ${script}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** The hardening headers of hono/secure-headers' defaults, with framing denied and our CSP: for pages. */
const SECURITY_HEADERS: readonly (readonly [string, string])[] = [
  ["Content-Security-Policy", contentSecurityPolicy()],
  ["Cross-Origin-Opener-Policy", "same-origin"],
  ["Cross-Origin-Resource-Policy", "same-origin"],
  ["Origin-Agent-Cluster", "?1"],
  ["Referrer-Policy", "no-referrer"],
  ["Strict-Transport-Security", "max-age=15552000; includeSubDomains"],
  ["X-Content-Type-Options", "nosniff"],
  ["X-DNS-Prefetch-Control", "off"],
  ["X-Download-Options", "noopen"],
  ["X-Frame-Options", "DENY"],
  ["X-Permitted-Cross-Domain-Policies", "none"],
  ["X-XSS-Protection", "0"],
];

/**
 * The JSON API's answers (`/api/…`): OWASP's REST Security set. A browser
 * never renders them as a document, so the policy allows nothing at all, and
 * the headers that only matter to documents (opener and agent-cluster
 * isolation, DNS prefetch, IE's download and XSS switches, Flash's
 * cross-domain files) are left out: about half the bytes of every answer.
 */
const API_HEADERS: readonly (readonly [string, string])[] = [
  ["Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'"],
  ["Cross-Origin-Resource-Policy", "same-origin"],
  ["Referrer-Policy", "no-referrer"],
  ["Strict-Transport-Security", "max-age=15552000; includeSubDomains"],
  ["X-Content-Type-Options", "nosniff"],
  ["X-Frame-Options", "DENY"],
];

/**
 * Security headers on every answer: the API's set under `/api/`, the pages'
 * set elsewhere. They are set before the handler runs (`c.header`), so the
 * handler's response carries them as it is built: hono/secure-headers sets
 * them on `c.res` afterwards, which makes @hono/node-server build a full web
 * Response instead of writing its cached body, and generates a nonce on every
 * request although only /docs uses one (that route sets its own policy). A
 * handler that returns a Response of its own still gets them afterwards.
 */
export function securityHeaders(): MiddlewareHandler<SecurityEnv> {
  return async (c, next) => {
    const set = c.req.path.startsWith("/api/") ? API_HEADERS : SECURITY_HEADERS;
    for (const [name, value] of set) c.header(name, value);
    await next();
    const headers = c.res.headers;
    if (headers.has("X-Content-Type-Options")) return;
    for (const [name, value] of set) headers.set(name, value);
  };
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
  "ETag",
  "Idempotent-Replayed",
];

/**
 * CORS per the configured origins (hono/cors); credentials are headers, never
 * cookies, so none are allowed. Preflights (OPTIONS, answered 204 by hono/cors)
 * and requests with an `Origin` header (what a browser sends cross-origin) go
 * through it; other requests come from programs and agents, which need no
 * grant, and hono/cors would rebuild their response to add one.
 */
export function corsPolicy(origins: string[] | "*"): MiddlewareHandler<SecurityEnv> {
  const policy = cors({
    origin: origins === "*" ? "*" : origins,
    allowMethods: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
    // Idempotency-Key for safe retries and If-None-Match for 304s from browser callers;
    // the MCP headers for browser-based MCP clients (/mcp checks Origin itself).
    allowHeaders: [
      "Content-Type",
      "Authorization",
      "X-API-Key",
      "X-Request-Id",
      "Idempotency-Key",
      "If-None-Match",
      "Mcp-Protocol-Version",
      "X-MCP-Read-Only",
    ],
    exposeHeaders: EXPOSED_HEADERS,
    maxAge: 600,
    credentials: false,
  });
  // With a list, the grant depends on Origin, so a shared cache must key on it.
  const vary = origins !== "*";
  return async (c, next) => {
    if (c.req.method === "OPTIONS" || c.req.header("origin") !== undefined) return policy(c, next);
    if (vary) c.header("Vary", "Origin");
    await next();
  };
}

import type { Marketplace } from "@psm/core";
import type { MiddlewareHandler } from "hono";
import type { RateLimitClass } from "./env.js";

/**
 * Rate-limit middleware per class: pass the object given to createHttpApp
 * (`config.rateLimit`), so a web form and the API call it mirrors share one
 * quota. Each hook reads `c.get("actor")`, `c.get("clientIp")`,
 * `c.get("rateLimitClass")` and, for login, `c.get("body").email`; it refuses
 * by throwing MarketplaceError `rate_limited`, and the login hook counts a
 * failure when the page answers 401.
 */
export type RateLimitHooks = Partial<Record<RateLimitClass, MiddlewareHandler>>;

/** Where the web app reports a failure it answered 500. */
export interface WebLogger {
  error(obj: object, msg?: string): void;
}

/** The arguments of createWebApp. */
export interface WebAppOptions {
  marketplace: Marketplace;
  /** The base URL people reach the site at (PUBLIC_URL); https makes every cookie Secure. */
  publicUrl: string;
  /** The host's rate limiters (see RateLimitHooks); none by default. */
  rateLimit?: RateLimitHooks | undefined;
  /** Called after each accepted "forgot password" form, so the mail goes out at once. Must not throw. */
  onPasswordResetRequested?: () => void;
  /** Largest uploaded document in bytes; 10 MiB by default. */
  maxUploadBytes?: number;
  /** Largest url-encoded form body in bytes; 1 MiB by default. */
  maxFormBytes?: number;
  /** Failures answered 500 go here; silent by default. */
  logger?: WebLogger;
}

/** WebAppOptions with the defaults filled in. */
export interface WebConfig {
  marketplace: Marketplace;
  publicOrigin: string;
  /** Whether cookies carry Secure (and the `__Host-` prefix). */
  secure: boolean;
  rateLimit: RateLimitHooks;
  onPasswordResetRequested: () => void;
  maxUploadBytes: number;
  maxFormBytes: number;
  logger: WebLogger;
}

/** Fills in the defaults; throws when publicUrl is not an http(s) URL. */
export function resolveWebConfig(options: WebAppOptions): WebConfig {
  const url = new URL(options.publicUrl);
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new Error(`publicUrl must be an http(s) URL, got ${options.publicUrl}`);
  }
  return {
    marketplace: options.marketplace,
    publicOrigin: url.origin,
    secure: url.protocol === "https:",
    rateLimit: options.rateLimit ?? {},
    onPasswordResetRequested: options.onPasswordResetRequested ?? (() => {}),
    maxUploadBytes: options.maxUploadBytes ?? 10 * 1024 * 1024,
    maxFormBytes: options.maxFormBytes ?? 1024 * 1024,
    logger: options.logger ?? { error() {} },
  };
}

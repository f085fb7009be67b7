import {
  type AnswerCacheOutcome,
  type RateLimitHooks as HostRateLimitHooks,
  type ListingRevision,
  type Logger,
  nodeSocketAddress,
  type RateClass,
  type RequestEndHook,
  type RequestTracer,
  type SocketAddress,
} from "@psm/host";
import { PUBLIC_MAX_AGE } from "./conditional.js";

/** The rate-limit classes of decisions.md (the host's); each route belongs to one. */
type RateLimitClass = RateClass;

/** A pino-compatible logger (the host's): the access log and 500s go through it. */
/**
 * The rate-limit classes of decisions.md. Every route names one (or none, for
 * health probes): `read` GETs, `write` other methods, `login`, `signup`,
 * `reset` (POST /api/auth/reset-password) and `upload` (POST /api/parse-pdf).
 */
export type { Logger, RateLimitClass };

/**
 * The rate-limit extension point: one middleware per class (the limiter lives
 * in the host's rate-limit/). Every route of that class runs it after authentication
 * (`c.get("actor")` names the caller, `c.get("rateLimitClass")` the class) and,
 * on routes with a JSON body, after the body is read but before it is
 * validated (`c.get("body")`: the login limiter keys on its email), and before
 * the route's access rule. A missing entry means no limit. A limiter refuses by
 * throwing `new MarketplaceError("rate_limited", undefined, { retryAfter })`:
 * the error mapper answers 429 `{error, code}` with `Retry-After`, and headers
 * set with `c.header()` (the IETF `RateLimit` ones) stay on the answer. It may
 * also `await next()` and then read `c.res.status` (to count login failures).
 * The host's createRateLimitHooks makes the decisions.md set.
 */
export type RateLimitHooks = HostRateLimitHooks;

/** The configuration of createHttpApp. */
export interface HttpConfig {
  /** Allowed CORS origins, or "*". Credentials travel in headers, never cookies. */
  corsOrigins: string[] | "*";
  /** Base URL of the service (OpenAPI `servers`), without a trailing slash. */
  publicUrl: string;
  /** Access log and error log; silent by default. */
  logger?: Logger;
  /**
   * Where the access log's line per request goes instead, if set. Those lines
   * never hold a credential or a body (access-log.ts), so a logger without
   * redaction may serve: redacting every line cost ~2 % of a cached read.
   */
  accessLogger?: Logger;
  /** Readiness for /readyz (the database answers); always ready by default. */
  ready?: () => Promise<boolean>;
  /** Largest JSON (and form) body in bytes; 1 MiB by default. */
  maxJsonBytes?: number;
  /** Largest uploaded file in bytes; 10 MiB by default. */
  maxUploadBytes?: number;
  /** Rate-limit middleware per route class (see RateLimitHooks). */
  rateLimit?: RateLimitHooks;
  /** Proxies (addresses or CIDR ranges) whose X-Forwarded-For is believed (TRUST_PROXY); none by default. */
  trustProxy?: string[];
  /**
   * The TCP peer's address. By default @hono/node-server's socket; requests
   * without one (`app.request()`) resolve to UNKNOWN_CLIENT, so tests inject this.
   */
  socketAddress?: SocketAddress;
  /** Uploads (POST /api/parse-pdf) handled at once by this process; more are 503. Default 4. */
  maxConcurrentUploads?: number;
  /**
   * Called after each accepted POST /api/auth/reset-password, so the server can
   * wake its mail dispatcher at once instead of at its next tick. Fire and
   * forget: it must not throw or wait, and is called for unknown addresses too.
   */
  onPasswordResetRequested?: () => void;
  /**
   * How long an anonymous listing read (`GET /api/listings`, `GET
   * /api/listings/{id}`) may be answered from this process's answer cache, in
   * ms (answer-cache.ts): a write through this process ends it at once (the
   * cache runs only with `listingRevision`), so this only bounds how late
   * other processes' writes on a shared database are seen. 1000 by default,
   * at most PUBLIC_MAX_AGE seconds; 0 turns it off.
   */
  answerCacheMs?: number;
  /**
   * The revision of the repositories the marketplace writes through
   * (`watchListingWrites`), which tells the answer cache of this process's
   * writes. Without it the cache is off: every read goes to storage.
   */
  listingRevision?: ListingRevision;
  /** Runs every request inside a trace (createHost's `traceRequest`). */
  traceRequest?: RequestTracer;
  /** Told of each answer cache lookup's outcome (metrics' hit rate). */
  onAnswerCache?: (outcome: AnswerCacheOutcome) => void;
  /** The host's request metrics: told of every answered request of every surface (createHost's `onRequestEnd`). */
  onRequestEnd?: RequestEndHook;
}

/** HttpConfig with every default filled in. */
export interface ResolvedConfig {
  corsOrigins: string[] | "*";
  publicUrl: string;
  logger: Logger;
  accessLogger: Logger;
  ready: () => Promise<boolean>;
  maxJsonBytes: number;
  maxUploadBytes: number;
  rateLimit: RateLimitHooks;
  trustProxy: string[];
  socketAddress: SocketAddress;
  maxConcurrentUploads: number;
  onPasswordResetRequested: () => void;
  answerCacheMs: number;
  listingRevision?: ListingRevision | undefined;
  onAnswerCache?: ((outcome: AnswerCacheOutcome) => void) | undefined;
}

const silent: Logger = { info() {}, warn() {}, error() {} };

/** Fills in the defaults of an HttpConfig. */
export function resolveConfig(config: HttpConfig): ResolvedConfig {
  return {
    corsOrigins: config.corsOrigins,
    publicUrl: config.publicUrl.replace(/\/+$/, ""),
    logger: config.logger ?? silent,
    accessLogger: config.accessLogger ?? config.logger ?? silent,
    ready: config.ready ?? (async () => true),
    maxJsonBytes: config.maxJsonBytes ?? 1024 * 1024,
    maxUploadBytes: config.maxUploadBytes ?? 10 * 1024 * 1024,
    rateLimit: config.rateLimit ?? {},
    trustProxy: config.trustProxy ?? [],
    socketAddress: config.socketAddress ?? nodeSocketAddress,
    maxConcurrentUploads: config.maxConcurrentUploads ?? 4,
    onPasswordResetRequested: config.onPasswordResetRequested ?? (() => {}),
    answerCacheMs: Math.min(Math.max(config.answerCacheMs ?? 1000, 0), PUBLIC_MAX_AGE * 1000),
    listingRevision: config.listingRevision,
    onAnswerCache: config.onAnswerCache,
  };
}

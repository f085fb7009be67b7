import { createHash, timingSafeEqual } from "node:crypto";
import type { AnswerCacheOutcome } from "@psm/adapter-http";
import { isMarketplaceError, MarketplaceError } from "@psm/core";
import {
  type HostEnv,
  type RateClass,
  type RateLimitHooks,
  type RequestEndHook,
  runLimited,
  type Surface,
  type UploadGate,
} from "@psm/host";
import { type Context, Hono, type MiddlewareHandler } from "hono";
import { describeRoute } from "hono-openapi";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import {
  type Backlog,
  type DocumentUse,
  type SearchPoolUse,
  watchAnswerCache,
  watchBacklog,
  watchStorage,
  watchWorkers,
} from "./metrics-work.js";
import type { StorageCallObserver } from "./storage-calls.js";

/** Where the metrics are scraped. */
export const METRICS_PATH = "/metrics";

const RATE_CLASSES: readonly RateClass[] = ["read", "write", "login", "confirm", "signup", "reset", "upload"];

/** Prometheus's default buckets: 5 ms to 10 s. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The Prometheus metrics of one server process. */
export interface ServerMetrics {
  readonly registry: Registry;
  /** The host's request hook (createHost's `onRequestEnd`): one histogram observation per request. */
  onRequestEnd: RequestEndHook;
  /** The same rate-limit hooks, each counting the requests it refuses by its class. */
  countRefusals(hooks: RateLimitHooks | undefined): RateLimitHooks | undefined;
  /**
   * GET /metrics as a surface of the host, in the `read` rate class: with METRICS_TOKEN only for
   * `Authorization: Bearer <token>`, without it only for loopback callers (the host's client
   * address, which believes X-Forwarded-For only from TRUST_PROXY). Mount it before the pages.
   */
  surface(rateLimit: RateLimitHooks | undefined): Surface;
  /** Times each storage call and counts those in flight (the pool's use): give it to StorageCalls.observe. */
  storage: StorageCallObserver;
  /** The answer cache's hook (createHttpApp's `onAnswerCache`): lookups by outcome. */
  onAnswerCache(outcome: AnswerCacheOutcome): void;
}

/** What the metrics watch besides requests. */
export interface MetricsOptions {
  /** METRICS_TOKEN; unset, /metrics answers loopback callers only. */
  token: string | undefined;
  /** The process's upload gate, whose held bytes are a gauge. */
  uploads: UploadGate;
  /** The webhook deliveries waiting, shared by every process on the database; read at each scrape. */
  webhookBacklog?: Backlog;
  /** The mail jobs waiting, shared likewise; read at each scrape. */
  mailBacklog?: Backlog;
  /** How busy the document processes are. */
  documentWorkers?: () => DocumentUse;
  /** Connections the database pool may open (PG_POOL_MAX; 1 for SQLite). */
  poolSize: number;
  /** PostgreSQL's search pool, whose calls are not the main pool's. */
  searchPool?: SearchPoolUse | undefined;
}

/**
 * The registry of a server process: requests by method, operation (the route pattern, or
 * "unmatched") and status with their latency, rate-limit refusals by class, the upload gate's
 * bytes, storage calls and the database pool, document workers, the mail and webhook queues,
 * the answer cache's lookups (metrics-work.ts), and prom-client's default process and Node.js
 * metrics (CPU, memory, handles, GC and event-loop delay). No label names a caller or a raw path.
 */
export function createMetrics(options: MetricsOptions): ServerMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const requests = new Histogram({
    name: "psm_http_request_duration_seconds",
    help: "Time from a request reaching the host to its answer, by method, operation (route pattern or unmatched) and status; _count counts requests",
    labelNames: ["method", "operation", "status"] as const,
    buckets: DURATION_BUCKETS,
    registers,
  });
  const refusals = new Counter({
    name: "psm_rate_limit_refusals_total",
    help: "Requests refused (429) by a rate limiter, by rate class",
    labelNames: ["class"] as const,
    registers,
  });
  for (const klass of RATE_CLASSES) refusals.inc({ class: klass }, 0);
  const { uploads, webhookBacklog, mailBacklog, documentWorkers } = options;
  if (webhookBacklog) {
    const what = "Webhook deliveries";
    const names = { pending: "psm_webhook_deliveries_pending", age: "psm_webhook_oldest_due_seconds" };
    watchBacklog(registers, { ...names, what, backlog: webhookBacklog });
  }
  if (mailBacklog) {
    const names = { pending: "psm_mail_jobs_pending", age: "psm_mail_oldest_due_seconds" };
    watchBacklog(registers, { ...names, what: "Mail jobs", backlog: mailBacklog });
  }
  if (documentWorkers) watchWorkers(registers, documentWorkers);
  const storage = watchStorage(registers, options.poolSize, options.searchPool);
  const onAnswerCache = watchAnswerCache(registers);
  new Gauge({
    name: "psm_upload_bytes_held",
    help: "Bytes of upload bodies held in memory now, on every surface",
    registers,
    collect() {
      this.set(uploads.heldBytes());
    },
  });
  new Gauge({
    name: "psm_upload_bytes_budget",
    help: "Bytes upload bodies may hold at once in this process; past it uploads are 503",
    registers,
  }).set(uploads.bounds.budgetBytes);

  const expected = options.token === undefined ? undefined : digest(options.token);

  return {
    registry,
    storage,
    onAnswerCache,
    onRequestEnd: ({ method, operation, status }, seconds) => {
      requests.observe({ method, operation, status: String(status) }, seconds);
    },
    countRefusals: (hooks) => hooks && countingRefusals(hooks, (klass) => refusals.inc({ class: klass })),
    surface(rateLimit) {
      const app = new Hono<HostEnv>();
      app.get(METRICS_PATH, describeMetrics, (c) =>
        runLimited(c, ["read"], rateLimit, async () => {
          guard(c, expected);
          const text = await registry.metrics();
          return c.body(text, 200, { "Content-Type": registry.contentType, "Cache-Control": "no-store" });
        }),
      );
      return { path: "/", app, private: [{ path: METRICS_PATH, privacy: "always" }] };
    },
  };
}

/** The SHA-256 of a token: equal lengths, so the comparison takes the same time whatever was sent. */
function digest(token: string): Buffer {
  return createHash("sha256").update(token, "utf8").digest();
}

/** Refuses a scrape the configuration does not allow: 401 without the token, 403 from afar without one set. */
function guard(c: Context<HostEnv>, expected: Buffer | undefined): void {
  if (expected !== undefined) {
    const presented = /^Bearer\s+(\S+)$/i.exec(c.req.header("authorization") ?? "")?.[1];
    if (presented === undefined || !timingSafeEqual(digest(presented), expected)) {
      c.header("WWW-Authenticate", 'Bearer realm="metrics"');
      throw new MarketplaceError(
        "unauthenticated",
        "GET /metrics needs Authorization: Bearer <METRICS_TOKEN>",
      );
    }
    return;
  }
  if (!isLoopback(c.get("clientIp"))) {
    throw new MarketplaceError(
      "forbidden",
      "GET /metrics answers loopback callers only while METRICS_TOKEN is unset",
    );
  }
}

/** 127.0.0.0/8 or ::1, as the host's clientIp() normalises addresses (IPv4-mapped ones become IPv4). */
export function isLoopback(address: string): boolean {
  return address === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(address);
}

const ERROR = {
  description: "`{error, code}`, as every error of the API",
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
};

/** GET /metrics in /openapi.json (decisions.md: it describes every route the server serves). */
const describeMetrics: MiddlewareHandler = describeRoute({
  operationId: "metrics",
  summary: "Prometheus metrics",
  description:
    "The process's metrics in the Prometheus text format. With METRICS_TOKEN set it needs `Authorization: Bearer " +
    "<METRICS_TOKEN>` (a token of the operator's, not a JWT or an API key); unset, it answers loopback callers only.",
  tags: ["health"],
  security: [],
  responses: {
    200: { description: "The metrics", content: { "text/plain; version=0.0.4": {} } },
    401: { ...ERROR, description: "METRICS_TOKEN is set and the request does not carry it" },
    403: { ...ERROR, description: "METRICS_TOKEN is unset and the caller is not on this machine" },
    429: ERROR,
  },
});

const NOTHING = Symbol("nothing thrown further in");

/**
 * Wraps each hook so that a `rate_limited` it throws itself is counted under its class. What is
 * thrown further in (an upload gate's share, another class's limiter) passes through uncounted.
 */
function countingRefusals(hooks: RateLimitHooks, refused: (klass: RateClass) => void): RateLimitHooks {
  const counted: RateLimitHooks = {};
  for (const klass of RATE_CLASSES) {
    const hook = hooks[klass];
    if (hook === undefined) continue;
    counted[klass] = async (c, next) => {
      let inner: unknown = NOTHING;
      try {
        return await hook(c, async () => {
          try {
            await next();
          } catch (error) {
            inner = error;
            throw error;
          }
        });
      } catch (error) {
        if (error !== inner && isMarketplaceError(error, "rate_limited")) refused(klass);
        throw error;
      }
    };
  }
  return counted;
}

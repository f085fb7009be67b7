import {
  createRateLimitHooks,
  type Logger,
  memoryStores,
  parseTrustedProxies,
  type RateLimitHooks,
  type RateLimitStoreFactory,
  type RedisClient,
  redisStores,
} from "@psm/host";
import { type Config, ConfigError } from "./config.js";

/** Counter stores by RATE_LIMIT_STORE, and how to release them. */
export interface CounterStores {
  kind: "memory" | "postgres" | "redis";
  factory: RateLimitStoreFactory;
  close(): Promise<void>;
}

/** Rate limiting as configured: hooks for createHttpApp (undefined when RATE_LIMIT=off). */
export interface RateLimiting {
  hooks: RateLimitHooks | undefined;
  close(): Promise<void>;
}

/** The proxies of TRUST_PROXY, checked so that a typo stops the server with one line naming it. */
export function trustedProxies(config: Pick<Config, "trustProxy">): string[] {
  try {
    parseTrustedProxies(config.trustProxy);
  } catch (error) {
    const why = error instanceof Error ? error.message.replace(/^trustProxy: /, "") : String(error);
    throw new ConfigError(`Invalid configuration: TRUST_PROXY ${why}`);
  }
  return config.trustProxy;
}

/**
 * Opens the store RATE_LIMIT_STORE names: `memory` (this process only),
 * `postgres` (the PostgreSQL of DATABASE_URL, an UNLOGGED table) or a
 * `redis://` URL. Shared stores are reached once here, so a wrong one stops
 * the server at start rather than failing requests later.
 */
export async function openCounterStores(
  config: Pick<Config, "rateLimitStore" | "database">,
): Promise<CounterStores> {
  const spec = config.rateLimitStore;
  if (spec.toLowerCase() === "memory") {
    return { kind: "memory", factory: memoryStores, close: async () => {} };
  }
  if (spec.toLowerCase() === "postgres") {
    if (config.database.kind !== "postgres") {
      throw new ConfigError(
        "Invalid configuration: RATE_LIMIT_STORE=postgres needs DATABASE_URL to be a postgres:// URL",
      );
    }
    const { openPostgresRateLimitStore } = await import("@psm/adapter-postgres");
    const store = openPostgresRateLimitStore({ url: config.database.url });
    await store.setup().catch(async (error: unknown) => {
      await store.close();
      throw new ConfigError(`Invalid configuration: RATE_LIMIT_STORE=postgres: ${describe(error)}`);
    });
    return { kind: "postgres", factory: () => store.counter(), close: () => store.close() };
  }
  return openRedisStores(spec);
}

async function openRedisStores(url: string): Promise<CounterStores> {
  const { Redis } = await import("ioredis");
  // No offline queue: while Redis is away a hit fails at once, and the guard
  // decides (open for reads and writes, 503 for auth) instead of requests piling up.
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 5_000,
  });
  // Errors surface through the guard per request; the last one names why a start fails.
  let lastError: unknown;
  redis.on("error", (error: unknown) => {
    lastError = error;
  });
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    redis.disconnect();
    const where = `${redis.options.host ?? "?"}:${redis.options.port ?? "?"}`;
    const why = describe(lastError ?? error);
    throw new ConfigError(`Invalid configuration: RATE_LIMIT_STORE Redis at ${where} did not answer: ${why}`);
  }
  // What hono-rate-limiter's RedisStore needs of a client, on ioredis.
  const client: RedisClient = {
    scriptLoad: async (script) => String(await redis.script("LOAD", script)),
    evalsha: async <TArgs extends unknown[], TData = unknown>(sha: string, keys: string[], args: TArgs) =>
      (await redis.evalsha(sha, keys.length, ...keys, ...args.map(String))) as TData,
    decr: (key) => redis.decr(key),
    del: (key) => redis.del(key),
  };
  return {
    kind: "redis",
    factory: redisStores(client),
    close: async () => {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

/** The hooks of RATE_LIMIT and RATE_LIMIT_STORE (decisions.md quotas). */
export async function openRateLimiting(
  config: Pick<Config, "rateLimit" | "rateLimitStore" | "database">,
  logger: Logger,
): Promise<RateLimiting> {
  if (!config.rateLimit) return { hooks: undefined, close: async () => {} };
  const stores = await openCounterStores(config);
  const hooks = createRateLimitHooks({ stores: stores.factory, shared: stores.kind !== "memory", logger });
  return { hooks, close: () => stores.close() };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

import postgres from "postgres";

/** A counter's state: hits in the current window and when that window ends. */
export interface RateLimitHits {
  totalHits: number;
  resetTime: Date;
}

/**
 * One policy's fixed-window counter, in the shape of hono-rate-limiter's
 * `Store` (matched structurally: this package does not depend on it). The
 * limiter calls `init` once with its window.
 */
export interface RateLimitCounter {
  readonly prefix: string;
  /** Counts in the database, so several processes share them. */
  readonly localKeys: false;
  init(options: { windowMs: number }): void;
  /** Adds one hit, opening a new window when the key has none or its window ended; atomic. */
  increment(key: string): Promise<RateLimitHits>;
  /** Takes one hit back (never below zero; nothing when the window ended). */
  decrement(key: string): Promise<void>;
  resetKey(key: string): Promise<void>;
  /** The open window of `key`, or undefined. */
  get(key: string): Promise<RateLimitHits | undefined>;
}

/** Rate-limit counters in PostgreSQL, shared by every server process on one database. */
export interface PostgresRateLimitStore {
  /** Creates the UNLOGGED counter table if absent; idempotent, safe when processes start together. */
  setup(): Promise<void>;
  /** A counter for one policy; keys are prefixed with `prefix`. */
  counter(prefix?: string): RateLimitCounter;
  /** Deletes ended windows; returns how many. Runs on a timer too. */
  sweep(): Promise<number>;
  close(): Promise<void>;
}

/** Options of openPostgresRateLimitStore. */
export interface PostgresRateLimitStoreOptions {
  url: string;
  /** Connections of the limiter's own pool (default 4): one short query per limited request. */
  poolMax?: number;
  /** How often ended windows are deleted (default one minute; 0 turns the timer off). */
  sweepIntervalMs?: number;
}

const TABLE = "rate_limit_hits";

/**
 * Counters in an UNLOGGED table: no WAL, so a hit costs one in-memory row
 * update, and a crash empties the table, which only forgives the windows then
 * open. Each hit is one statement (INSERT ... ON CONFLICT DO UPDATE ...
 * RETURNING), atomic under concurrency, timed by the database clock so every
 * process agrees on when a window ends.
 */
export function openPostgresRateLimitStore(options: PostgresRateLimitStoreOptions): PostgresRateLimitStore {
  const sql = postgres(options.url, {
    max: options.poolMax ?? 4,
    connection: { application_name: "psm-rate-limit" },
    onnotice: () => {},
  });
  const sweepEvery = options.sweepIntervalMs ?? 60_000;
  let timer: NodeJS.Timeout | undefined;

  const sweep = async () => {
    const rows = await sql`delete from ${sql(TABLE)} where reset_at < now() returning 1`;
    return rows.length;
  };

  return {
    async setup() {
      // CREATE ... IF NOT EXISTS still races in the catalog (42710 / 23505) when
      // processes start together: a transaction-scoped advisory lock serialises them.
      await sql.begin(async (tx) => {
        await tx`select pg_advisory_xact_lock(hashtext(${TABLE}))`;
        await tx`create unlogged table if not exists ${sql(TABLE)} (
          key text primary key,
          hits integer not null,
          reset_at timestamptz not null
        )`;
      });
      if (sweepEvery > 0 && timer === undefined) {
        timer = setInterval(() => void sweep().catch(() => {}), sweepEvery);
        timer.unref();
      }
    },
    counter: (prefix = "") => createCounter(sql, prefix),
    sweep,
    async close() {
      clearInterval(timer);
      timer = undefined;
      await sql.end({ timeout: 5 });
    },
  };
}

interface HitRow {
  hits: number;
  reset_at: Date;
}

function createCounter(sql: postgres.Sql, prefix: string): RateLimitCounter {
  let windowMs = 60_000;
  const toHits = (row: HitRow): RateLimitHits => ({ totalHits: row.hits, resetTime: row.reset_at });
  return {
    prefix,
    localKeys: false,
    init(options) {
      windowMs = options.windowMs;
    },
    async increment(key) {
      const [row] = await sql<HitRow[]>`
        insert into ${sql(TABLE)} as r (key, hits, reset_at)
        values (${prefix + key}, 1, now() + ${windowMs} * interval '1 millisecond')
        on conflict (key) do update set
          hits = case when r.reset_at <= now() then 1 else r.hits + 1 end,
          reset_at = case when r.reset_at <= now() then excluded.reset_at else r.reset_at end
        returning hits, reset_at`;
      if (!row) throw new Error("rate-limit upsert returned no row");
      return toHits(row);
    },
    async decrement(key) {
      await sql`update ${sql(TABLE)} set hits = hits - 1
        where key = ${prefix + key} and hits > 0 and reset_at > now()`;
    },
    async resetKey(key) {
      await sql`delete from ${sql(TABLE)} where key = ${prefix + key}`;
    },
    async get(key) {
      const [row] = await sql<HitRow[]>`select hits, reset_at from ${sql(TABLE)}
        where key = ${prefix + key} and reset_at > now()`;
      return row ? toHits(row) : undefined;
    },
  };
}

import { isIP } from "node:net";
import { resolve } from "node:path";
import { checkSender } from "@psm/adapter-mail";
import {
  DEFAULT_CURRENCY,
  DEFAULT_SLOTS,
  DEFAULT_WEBHOOK_RETRY_SCHEDULE,
  type SlotSettings,
} from "@psm/core";
import * as v from "valibot";
import {
  type Fail,
  isCurrency,
  isHostName,
  isHttpUrl,
  isWildcard,
  parseCorsOrigins,
} from "./config-values.js";

/** The server's configuration, read from the environment (decisions.md). */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  database: { kind: "sqlite"; file: string } | { kind: "postgres"; url: string };
  pgPoolMax: number;
  /** PG_SEARCH_POOL_MAX: the searches' own pool (default half of PG_POOL_MAX, rounded up). */
  pgSearchPoolMax: number;
  jwtSecret: string | undefined;
  production: boolean;
  admin: { email: string; password: string } | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  publicUrl: string;
  slots: SlotSettings;
  rateLimit: boolean;
  rateLimitStore: string;
  trustProxy: string[];
  corsOrigins: string[] | "*";
  legacyPublicEndpoints: boolean;
  /** REQUIRE_VERIFIED_EMAIL: keys, listings and messages need a proven address. */
  requireVerifiedEmail: boolean;
  documentAi: { url: string; key: string; model: string } | undefined;
  /** MCP_READ_ONLY: the MCP server lists and runs no tool that writes. */
  mcpReadOnly: boolean;
  /** MCP_ANONYMOUS: a caller without credentials may use /mcp's public reads (1.2); off, it is asked to sign in (401). */
  mcpAnonymous: boolean;
  /** ANSWER_CACHE_MS: longest reuse of an anonymous listing read (0 = off; adapter-http's answer cache). */
  answerCacheMs: number;
  /** METRICS_TOKEN: the bearer token GET /metrics requires; unset, it answers loopback callers only. A secret: never logged. */
  metricsToken: string | undefined;
  oauth: {
    /** OAUTH: the server is its own OAuth 2.1 authorization server (off: API keys and JWTs only). */
    enabled: boolean;
    /**
     * CLIENT_METADATA_ALLOW_PRIVATE (development only): Client ID Metadata Documents may be http and
     * on loopback, private and link-local addresses.
     */
    allowPrivateClients: boolean;
  };
  webhooks: {
    /** WEBHOOK_ALLOW_PRIVATE: URLs may resolve to loopback, private and link-local addresses. */
    allowPrivate: boolean;
    /** WEBHOOK_RETRY_SCHEDULE: seconds before each retry of a failed delivery. */
    retrySchedule: number[];
  };
  /** CURRENCY: the ISO 4217 code every price is in (decisions.md 1.3.0 "Prices and units"). */
  currency: string;
  /** OTEL_EXPORTER_OTLP_ENDPOINT: where traces go (OTLP over HTTP); unset, no tracing code is loaded. */
  otelEndpoint: string | undefined;
  logLevel: string;
}

/**
 * A problem the operator fixes in the environment: the message is one line that
 * names the variable (and never a password), printed as it is before exit 1.
 */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

/** The spellings every on/off switch accepts, case-insensitively. */
const TRUE_WORDS = ["true", "1", "yes", "on"];
const FALSE_WORDS = ["false", "0", "no", "off"];

/** Reads and validates the configuration; throws ConfigError naming the first bad variable. */
export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const get = (name: string) => {
    const value = env[name];
    return value === undefined || value.trim() === "" ? undefined : value.trim();
  };
  const fail = (name: string, why: string): never => {
    throw new ConfigError(`Invalid configuration: ${name} ${why}`);
  };
  const int = (name: string, fallback: number, min: number, max: number) => {
    const raw = get(name);
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max)
      fail(name, `must be an integer from ${min} to ${max}`);
    return Number(raw);
  };
  const bool = (name: string, fallback: boolean) => {
    const raw = get(name)?.toLowerCase();
    if (raw === undefined) return fallback;
    if (TRUE_WORDS.includes(raw)) return true;
    if (FALSE_WORDS.includes(raw)) return false;
    return fail(name, "must be true or false (or 1/0, yes/no, on/off)");
  };
  const list = (name: string) =>
    (get(name) ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);

  const port = int("PORT", 3000, 0, 65535);
  const host = get("HOST") ?? "127.0.0.1";
  if (!isIP(host) && !isHostName(host)) {
    fail("HOST", `must be an IP address or a host name, without brackets or port (got "${host}")`);
  }
  const dataDir = resolve(get("DATA_DIR") ?? "./data");
  const production = get("NODE_ENV") === "production";
  const jwtSecret = get("JWT_SECRET");
  if (jwtSecret !== undefined && Buffer.byteLength(jwtSecret, "utf8") < 32)
    fail("JWT_SECRET", `must be at least 32 bytes (got ${Buffer.byteLength(jwtSecret, "utf8")})`);
  if (jwtSecret === undefined && production) fail("JWT_SECRET", "is required when NODE_ENV=production");

  const adminEmail = get("ADMIN_EMAIL");
  const adminPassword = env.ADMIN_PASSWORD;
  if ((adminEmail === undefined) !== (adminPassword === undefined || adminPassword === "")) {
    fail(adminEmail === undefined ? "ADMIN_EMAIL" : "ADMIN_PASSWORD", "must be set together with its pair");
  }
  if (adminEmail !== undefined && !v.is(v.pipe(v.string(), v.email()), adminEmail))
    fail("ADMIN_EMAIL", "must be an email address");
  if (
    adminPassword !== undefined &&
    adminPassword !== "" &&
    (adminPassword.length < 6 || adminPassword.length > 1024)
  ) {
    fail("ADMIN_PASSWORD", "must be 6 to 1024 characters");
  }

  const smtpUrl = get("SMTP_URL");
  if (smtpUrl !== undefined && !/^smtps?:\/\/[^\s]+$/i.test(smtpUrl))
    fail("SMTP_URL", "must be smtp://user:pass@host:port or smtps://...");

  const mailFrom = get("MAIL_FROM") ?? "Marketplace <no-reply@localhost>";
  try {
    checkSender(mailFrom);
  } catch {
    fail("MAIL_FROM", 'must be one address like "Marketplace <no-reply@example.com>"');
  }

  // A wildcard bind address says where the server listens, not an address anyone
  // can open: reset and verification links would point at 0.0.0.0. Refused, not
  // guessed: a loopback fallback would make links that work only on this machine,
  // and the mistake would surface in users' mailboxes, far from a warning in a log.
  const givenPublicUrl = get("PUBLIC_URL");
  if (givenPublicUrl === undefined && isWildcard(host)) {
    fail(
      "PUBLIC_URL",
      `is required when HOST is ${host}: set it to the address users open, e.g. https://market.example.com`,
    );
  }
  const publicUrl = (givenPublicUrl ?? `http://${isIP(host) === 6 ? `[${host}]` : host}:${port}`).replace(
    /\/+$/,
    "",
  );
  if (!isHttpUrl(publicUrl)) fail("PUBLIC_URL", "must be an http(s) URL without query or fragment");

  const rateLimitStore = get("RATE_LIMIT_STORE") ?? "memory";
  if (!/^(memory|postgres|redis:\/\/.+|rediss:\/\/.+)$/i.test(rateLimitStore)) {
    fail("RATE_LIMIT_STORE", "must be memory, postgres, or a redis:// URL");
  }

  const corsOrigins = parseCorsOrigins(list("CORS_ORIGINS"), fail);
  const aiUrl = get("DOCUMENT_AI_URL");
  const aiKey = get("DOCUMENT_AI_KEY");
  if (aiUrl !== undefined && !/^https?:\/\//i.test(aiUrl)) fail("DOCUMENT_AI_URL", "must be an http(s) URL");
  if (aiUrl !== undefined && aiKey === undefined)
    fail("DOCUMENT_AI_KEY", "is required when DOCUMENT_AI_URL is set");

  // A secret in a header: long enough not to be guessed, and said by its length only.
  const metricsToken = get("METRICS_TOKEN");
  if (metricsToken !== undefined && !/^[\x21-\x7e]{16,1024}$/.test(metricsToken))
    fail(
      "METRICS_TOKEN",
      `must be 16 to 1024 visible ASCII characters (got ${metricsToken.length} characters)`,
    );

  const currency = (get("CURRENCY") ?? DEFAULT_CURRENCY).toUpperCase();
  if (!isCurrency(currency))
    fail("CURRENCY", `must be an ISO 4217 code such as USD, EUR or GBP (got "${currency}")`);
  const otelEndpoint = get("OTEL_EXPORTER_OTLP_ENDPOINT");
  if (otelEndpoint !== undefined && !/^https?:\/\/[^\s]+$/i.test(otelEndpoint))
    fail("OTEL_EXPORTER_OTLP_ENDPOINT", "must be an http(s) URL such as http://127.0.0.1:4318");

  const logLevel = get("LOG_LEVEL") ?? "info";
  if (!LOG_LEVELS.includes(logLevel)) fail("LOG_LEVEL", `must be one of ${LOG_LEVELS.join(", ")}`);

  const pgPoolMax = int("PG_POOL_MAX", 10, 1, 1000);
  return {
    port,
    host,
    dataDir,
    database: parseDatabaseUrl(get("DATABASE_URL"), dataDir, fail),
    pgPoolMax,
    pgSearchPoolMax: int("PG_SEARCH_POOL_MAX", Math.ceil(pgPoolMax / 2), 1, 1000),
    jwtSecret,
    production,
    admin:
      adminEmail !== undefined && adminPassword ? { email: adminEmail, password: adminPassword } : undefined,
    smtpUrl,
    mailFrom,
    publicUrl,
    slots: parseSlots(get("LISTING_SLOTS"), fail),
    rateLimit: bool("RATE_LIMIT", true),
    rateLimitStore,
    trustProxy: list("TRUST_PROXY"),
    corsOrigins,
    legacyPublicEndpoints: bool("LEGACY_PUBLIC_ENDPOINTS", false),
    requireVerifiedEmail: bool("REQUIRE_VERIFIED_EMAIL", false),
    documentAi:
      aiUrl && aiKey
        ? { url: aiUrl, key: aiKey, model: get("DOCUMENT_AI_MODEL") ?? "gpt-4o-mini" }
        : undefined,
    mcpReadOnly: bool("MCP_READ_ONLY", false),
    mcpAnonymous: bool("MCP_ANONYMOUS", true),
    answerCacheMs: int("ANSWER_CACHE_MS", 1000, 0, 5000),
    metricsToken,
    oauth: {
      enabled: bool("OAUTH", true),
      allowPrivateClients: bool("CLIENT_METADATA_ALLOW_PRIVATE", false),
    },
    webhooks: {
      allowPrivate: bool("WEBHOOK_ALLOW_PRIVATE", false),
      retrySchedule: parseRetrySchedule(get("WEBHOOK_RETRY_SCHEDULE"), fail),
    },
    currency,
    otelEndpoint,
    logLevel,
  };
}

/** Seconds before each retry: 1 to 20 whole numbers, each 1 to 604800 (a week). */
function parseRetrySchedule(raw: string | undefined, fail: Fail): number[] {
  if (raw === undefined) return [...DEFAULT_WEBHOOK_RETRY_SCHEDULE];
  const parts = raw.split(",").map((part) => part.trim());
  const seconds = parts.map(Number);
  if (
    parts.length > 20 ||
    parts.some((part) => !/^\d{1,6}$/.test(part)) ||
    seconds.some((value) => value < 1 || value > 604_800)
  ) {
    return fail(
      "WEBHOOK_RETRY_SCHEDULE",
      "must be 1 to 20 comma-separated whole numbers of seconds, each 1 to 604800 (e.g. 5,300,1800)",
    );
  }
  return seconds;
}

function parseDatabaseUrl(raw: string | undefined, dataDir: string, fail: Fail): Config["database"] {
  if (raw === undefined) return { kind: "sqlite", file: resolve(dataDir, "marketplace.db") };
  // Not parsed here: postgres.js reads forms WHATWG URLs refuse (several hosts,
  // "h1:5432,h2:5432"); a URL it cannot use fails at start, naming DATABASE_URL.
  if (/^postgres(ql)?:\/\//i.test(raw)) return { kind: "postgres", url: raw };
  const m = /^(?:sqlite|file):(.+)$/i.exec(raw);
  if (m?.[1]) return { kind: "sqlite", file: resolve(m[1].replace(/^\/\/(?=\/)/, "")) };
  return fail("DATABASE_URL", "must be sqlite:PATH, file:PATH or a postgres:// URL");
}

function parseSlots(raw: string | undefined, fail: Fail): SlotSettings {
  const slots = { ...DEFAULT_SLOTS };
  if (raw === undefined) return slots;
  for (const part of raw.split(",")) {
    const m = /^\s*(personal|business|admin)\s*:\s*(\d+)\s*$/.exec(part);
    if (!m) fail("LISTING_SLOTS", "must look like personal:5,business:50,admin:1000");
    slots[m![1] as keyof SlotSettings] = Number(m![2]);
  }
  return slots;
}

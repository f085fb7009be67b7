import { resolve } from "node:path";
import { DEFAULT_SLOTS, type SlotSettings } from "@psm/core";
import * as v from "valibot";

/** The server's configuration, read from the environment (decisions.md). */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  database: { kind: "sqlite"; file: string } | { kind: "postgres"; url: string };
  pgPoolMax: number;
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
  logLevel: string;
}

/** A configuration problem: the message names the variable. */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

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
    if (["true", "1", "yes", "on"].includes(raw)) return true;
    if (["false", "0", "no", "off"].includes(raw)) return false;
    return fail(name, "must be true or false");
  };
  const list = (name: string) =>
    (get(name) ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);

  const port = int("PORT", 3000, 0, 65535);
  const host = get("HOST") ?? "127.0.0.1";
  const dataDir = resolve(get("DATA_DIR") ?? "./data");
  const production = get("NODE_ENV") === "production";
  const jwtSecret = get("JWT_SECRET");
  if (jwtSecret !== undefined && Buffer.byteLength(jwtSecret, "utf8") < 32)
    fail("JWT_SECRET", "must be at least 32 bytes");
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

  const publicUrl = (
    get("PUBLIC_URL") ?? `http://${host.includes(":") ? `[${host}]` : host}:${port}`
  ).replace(/\/+$/, "");
  if (!/^https?:\/\/[^\s/]+/i.test(publicUrl)) fail("PUBLIC_URL", "must be an http(s) URL");

  const rateLimitRaw = get("RATE_LIMIT")?.toLowerCase();
  if (rateLimitRaw !== undefined && !["on", "off", "true", "false"].includes(rateLimitRaw))
    fail("RATE_LIMIT", "must be on or off");
  const rateLimitStore = get("RATE_LIMIT_STORE") ?? "memory";
  if (!/^(memory|postgres|redis:\/\/.+|rediss:\/\/.+)$/i.test(rateLimitStore)) {
    fail("RATE_LIMIT_STORE", "must be memory, postgres, or a redis:// URL");
  }

  const cors = list("CORS_ORIGINS");
  const aiUrl = get("DOCUMENT_AI_URL");
  const aiKey = get("DOCUMENT_AI_KEY");
  if (aiUrl !== undefined && !/^https?:\/\//i.test(aiUrl)) fail("DOCUMENT_AI_URL", "must be an http(s) URL");
  if (aiUrl !== undefined && aiKey === undefined)
    fail("DOCUMENT_AI_KEY", "is required when DOCUMENT_AI_URL is set");

  const logLevel = get("LOG_LEVEL") ?? "info";
  if (!LOG_LEVELS.includes(logLevel)) fail("LOG_LEVEL", `must be one of ${LOG_LEVELS.join(", ")}`);

  return {
    port,
    host,
    dataDir,
    database: parseDatabaseUrl(get("DATABASE_URL"), dataDir, fail),
    pgPoolMax: int("PG_POOL_MAX", 10, 1, 1000),
    jwtSecret,
    production,
    admin:
      adminEmail !== undefined && adminPassword ? { email: adminEmail, password: adminPassword } : undefined,
    smtpUrl,
    mailFrom: get("MAIL_FROM") ?? "Marketplace <no-reply@localhost>",
    publicUrl,
    slots: parseSlots(get("LISTING_SLOTS"), fail),
    rateLimit: rateLimitRaw !== "off" && rateLimitRaw !== "false",
    rateLimitStore,
    trustProxy: list("TRUST_PROXY"),
    corsOrigins: cors.length === 0 || cors.includes("*") ? "*" : cors,
    legacyPublicEndpoints: bool("LEGACY_PUBLIC_ENDPOINTS", false),
    requireVerifiedEmail: bool("REQUIRE_VERIFIED_EMAIL", false),
    documentAi:
      aiUrl && aiKey
        ? { url: aiUrl, key: aiKey, model: get("DOCUMENT_AI_MODEL") ?? "gpt-4o-mini" }
        : undefined,
    logLevel,
  };
}

type Fail = (name: string, why: string) => never;

function parseDatabaseUrl(raw: string | undefined, dataDir: string, fail: Fail): Config["database"] {
  if (raw === undefined) return { kind: "sqlite", file: resolve(dataDir, "marketplace.db") };
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

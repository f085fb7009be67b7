import { resolve } from "node:path";
import { type Config, ConfigError } from "./config.js";

/**
 * Why something failed, on one line: the innermost cause's message (a query
 * wrapper's own message would repeat SQL and parameters), or the codes of an
 * AggregateError (Node's connect to a name with both IPv4 and IPv6 addresses
 * fails with one whose message is empty).
 */
export function describeCause(error: unknown): string {
  let inner = error;
  while (inner instanceof Error && inner.cause instanceof Error) inner = inner.cause;
  if (inner instanceof AggregateError && inner.message === "") {
    const parts = [...new Set(inner.errors.map(describeCause))];
    return parts.join("; ") || "unknown error";
  }
  const code = (inner as { code?: unknown } | null)?.code;
  const text =
    inner instanceof Error ? inner.message || (typeof code === "string" ? code : inner.name) : String(inner);
  return text.replace(/\s+/g, " ").trim();
}

/** `scheme://user:***@host/…`: a URL fit for a log line or an error message. */
export function redactUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:@/]*):[^@/]*@/i, "$1:***@");
}

/** The password in a URL, raw and percent-decoded, or nothing. */
function passwordsOf(url: string): string[] {
  const m = /^[a-z][a-z0-9+.-]*:\/\/[^:@/]*:([^@/]*)@/i.exec(url);
  if (!m?.[1]) return [];
  let decoded = m[1];
  try {
    decoded = decodeURIComponent(m[1]);
  } catch {
    // not valid percent-encoding: the raw form is all there is
  }
  return [...new Set([m[1], decoded])];
}

/** `text` with `url` and its password replaced, so a driver that quotes either cannot leak it. */
function scrub(text: string, url: string): string {
  let out = text.split(url).join(redactUrl(url));
  for (const secret of passwordsOf(url)) out = out.split(secret).join("***");
  return out;
}

/**
 * The storage could not be opened or migrated: names the variable that chose
 * it (DATABASE_URL, or DATA_DIR for the default SQLite file), never a password.
 */
export function databaseError(config: Pick<Config, "database" | "dataDir">, error: unknown): ConfigError {
  const { database } = config;
  if (database.kind === "postgres") {
    const why = scrub(describeCause(error), database.url);
    return new ConfigError(
      `Failed to start: the database at DATABASE_URL (${redactUrl(database.url)}) could not be opened: ${why}`,
    );
  }
  const variable = database.file === resolve(config.dataDir, "marketplace.db") ? "DATA_DIR" : "DATABASE_URL";
  return new ConfigError(
    `Failed to start: the SQLite database ${database.file} (from ${variable}) could not be opened: ${describeCause(error)}`,
  );
}

/** The server could not listen: names PORT or HOST, whichever the error is about. */
export function listenError(config: Pick<Config, "host" | "port">, error: unknown): ConfigError {
  const code = (error as { code?: unknown } | null)?.code;
  const why = describeCause(error);
  if (code === "EADDRINUSE")
    return new ConfigError(`Failed to start: PORT ${config.port} is already in use (${why})`);
  if (code === "EACCES") {
    return new ConfigError(
      `Failed to start: PORT ${config.port} needs privileges this process lacks (${why})`,
    );
  }
  return new ConfigError(`Failed to start: cannot listen on HOST ${config.host} (${why})`);
}

/** DATA_DIR could not be created or written (the generated JWT secret lives there). */
export function dataDirError(config: Pick<Config, "dataDir">, error: unknown): ConfigError {
  return new ConfigError(
    `Failed to start: DATA_DIR ${config.dataDir} is not usable: ${describeCause(error)}`,
  );
}

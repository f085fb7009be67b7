import { type ErrorCode, MarketplaceError } from "@psm/core";

/** The parts of a better-sqlite3 SqliteError the mapping reads. */
interface SqliteErrorFields {
  code: string;
  message: string;
}

function isSqliteError(value: unknown): value is SqliteErrorFields {
  return (
    value instanceof Error &&
    value.name === "SqliteError" &&
    typeof (value as Partial<SqliteErrorFields>).code === "string"
  );
}

/** The driver error behind `error`: drizzle wraps it in DrizzleQueryError's `cause`. */
function driverError(error: unknown): SqliteErrorFields | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (isSqliteError(current)) return current;
    current = current.cause;
  }
  return undefined;
}

/**
 * The code for a driver error, the same table as the PostgreSQL adapter's:
 * - the unique index on users.email: `email_taken`;
 * - a foreign key (each one a write can break points at users: the
 *   author or owner is gone, perhaps deleted by a concurrent request; a
 *   delivery's insert skips a gone webhook instead): `user_not_found`;
 * - another connection holding the write lock past busy_timeout (extended
 *   codes SQLITE_BUSY_*): `service_unavailable`, since a retry may succeed;
 * - anything else (other unique, CHECK, NOT NULL, a closed database): `internal_error`.
 */
function codeFor(driver: SqliteErrorFields | undefined): ErrorCode {
  if (driver === undefined) return "internal_error";
  if (driver.code === "SQLITE_CONSTRAINT_UNIQUE" && driver.message.includes("users.email"))
    return "email_taken";
  if (driver.code === "SQLITE_CONSTRAINT_FOREIGNKEY") return "user_not_found";
  if (driver.code === "SQLITE_BUSY" || driver.code.startsWith("SQLITE_BUSY_")) return "service_unavailable";
  return "internal_error";
}

/**
 * Translates anything a statement threw into a MarketplaceError carrying the
 * original as `cause`; the message is the code's wire message, never SQL text.
 */
export function toMarketplaceError(error: unknown): MarketplaceError {
  if (error instanceof MarketplaceError) return error;
  return new MarketplaceError(codeFor(driverError(error)), undefined, { cause: error });
}

/**
 * Runs a storage operation so that only MarketplaceErrors escape it: the
 * result resolves, any throw rejects translated. better-sqlite3 is
 * synchronous, so the whole step (a transaction included) completes before
 * another call starts.
 */
export function guarded<T>(work: () => T): Promise<T> {
  try {
    return Promise.resolve(work());
  } catch (error) {
    return Promise.reject(toMarketplaceError(error));
  }
}

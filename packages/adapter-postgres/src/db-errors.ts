import { type ErrorCode, MarketplaceError } from "@psm/core";

/** The fields of a postgres.js PostgresError that the mapping reads. */
interface PgErrorFields {
  code: string;
  constraint_name?: string | undefined;
}

// postgres.js errors carry the SQLSTATE (or a connection error's name) in
// `code`; Drizzle wraps them in a DrizzleQueryError whose `cause` is the
// driver error, so walk the chain.
function driverError(error: unknown): PgErrorFields | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === "object" && current !== null; depth++) {
    const code: unknown = Reflect.get(current, "code");
    if (typeof code === "string") return current as PgErrorFields;
    current = Reflect.get(current, "cause");
  }
  return undefined;
}

/** The SQLSTATE (or connection error name) behind a driver or Drizzle error, if any. */
export function sqlState(error: unknown): string | undefined {
  return driverError(error)?.code;
}

// Connection-level failures (server gone, shutting down, too many clients):
// a retry later may succeed, so they are not reported as a bug.
function isUnavailable(code: string): boolean {
  return (
    code.startsWith("08") ||
    code === "57P01" ||
    code === "57P02" ||
    code === "57P03" ||
    code === "53300" ||
    code.startsWith("CONNECTION_") ||
    code === "ECONNREFUSED" ||
    code === "ECONNRESET" ||
    code === "ETIMEDOUT"
  );
}

/**
 * The code for a driver error, the same table as the SQLite adapter's:
 * - the unique index on lower(users.email) (23505): `email_taken`;
 * - a foreign key (23503; each one a write can break points at users: the
 *   author or owner is gone, perhaps deleted by a concurrent request; a
 *   delivery's insert skips a gone webhook instead): `user_not_found`;
 * - the server unreachable, shutting down or out of connections: `service_unavailable`;
 * - anything else (other unique, CHECK, NOT NULL, a malformed value): `internal_error`.
 */
function codeFor(driver: PgErrorFields | undefined): ErrorCode {
  if (driver === undefined) return "internal_error";
  if (driver.code === "23505" && driver.constraint_name === "users_email_lower_idx") return "email_taken";
  if (driver.code === "23503") return "user_not_found";
  if (isUnavailable(driver.code)) return "service_unavailable";
  return "internal_error";
}

/**
 * Translates anything a query threw into a MarketplaceError carrying the
 * original as `cause`; the message is the code's wire message, never SQL text.
 */
export function toMarketplaceError(error: unknown): MarketplaceError {
  if (error instanceof MarketplaceError) return error;
  return new MarketplaceError(codeFor(driverError(error)), undefined, { cause: error });
}

/** Runs a storage operation so that only MarketplaceErrors escape it. */
export async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toMarketplaceError(error);
  }
}

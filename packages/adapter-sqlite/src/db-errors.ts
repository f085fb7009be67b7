import { MarketplaceError } from "@psm/core";

/** The parts of a better-sqlite3 SqliteError the mapping reads. */
interface SqliteErrorLike {
  code: string;
  message: string;
}

function isSqliteError(value: unknown): value is SqliteErrorLike {
  return (
    value instanceof Error &&
    value.name === "SqliteError" &&
    typeof (value as Partial<SqliteErrorLike>).code === "string"
  );
}

/** The driver error behind `error`: drizzle wraps it in DrizzleQueryError's `cause`. */
function driverError(error: unknown): SqliteErrorLike | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (isSqliteError(current)) return current;
    current = current.cause;
  }
  return undefined;
}

/**
 * Turns any failure into a MarketplaceError. A unique violation on users.email
 * is `email_taken`; everything else is `internal_error` with the generic message,
 * so no SQL text reaches a caller; the original error stays as `cause` for logs.
 */
export function toMarketplaceError(error: unknown): MarketplaceError {
  if (error instanceof MarketplaceError) return error;
  const driver = driverError(error);
  if (driver?.code === "SQLITE_CONSTRAINT_UNIQUE" && driver.message.includes("users.email")) {
    return new MarketplaceError("email_taken", undefined, { cause: error });
  }
  return new MarketplaceError("internal_error", undefined, { cause: error });
}

/**
 * Runs a synchronous database step as a port call: the result resolves, any
 * throw rejects as a MarketplaceError. better-sqlite3 is synchronous, so the
 * whole step (a transaction included) completes before another call starts.
 */
export function run<T>(step: () => T): Promise<T> {
  try {
    return Promise.resolve(step());
  } catch (error) {
    return Promise.reject(toMarketplaceError(error));
  }
}

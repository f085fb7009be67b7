import { describeError } from "@psm/adapter-http";
import pino, { type Logger } from "pino";

/**
 * An `err` field as logged: an Error becomes its description (name, message,
 * driver code, stack, and the same for each cause), the shape the HTTP
 * adapter already logs for a 500, which passes through as it is. pino's own
 * serializer would keep only the causes' messages and stacks, losing their
 * codes (PostgreSQL's SQLSTATE, SQLite's SQLITE_…), and copy a failed query's
 * parameters (users' data) into the line.
 */
export function serializeErr(value: unknown): unknown {
  return value instanceof Error ? describeError(value) : value;
}

/**
 * Structured JSON logs on stdout; anything that looks like a credential is
 * redacted. Writes are asynchronous: lines logged while a write is in flight go
 * out together in the next one (one system call for many access-log lines under
 * load), and pino flushes what is left synchronously when the process exits.
 */
export function createLogger(
  level: string,
  destination: pino.DestinationStream = pino.destination({ dest: 1, sync: false }),
): Logger {
  return pino(
    {
      level,
      base: undefined,
      serializers: { err: serializeErr },
      redact: {
        paths: [
          "password",
          "new_password",
          "token",
          "key",
          "apiKey",
          "authorization",
          "*.password",
          "*.token",
          "*.authorization",
          "req.headers.authorization",
          'req.headers["x-api-key"]',
        ],
        censor: "[redacted]",
      },
    },
    destination,
  );
}

/**
 * The access log's logger: the same destination and level, without
 * redaction. Its lines are built from fixed fields that never carry a
 * credential (adapter-http's access-log.ts), and matching the redaction
 * paths against each one cost ~2 % of a cached read.
 */
export function accessLogger(logger: Logger): Logger {
  return logger.child({}, { redact: { paths: [] } });
}

import pino, { type Logger } from "pino";

/**
 * Structured JSON logs on stdout; anything that looks like a credential is
 * redacted. Writes are asynchronous: lines logged while a write is in flight go
 * out together in the next one (one system call for many access-log lines under
 * load), and pino flushes what is left synchronously when the process exits.
 */
export function createLogger(level: string): Logger {
  const destination = pino.destination({ dest: 1, sync: false });
  return pino(
    {
      level,
      base: undefined,
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

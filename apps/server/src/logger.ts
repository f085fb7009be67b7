import pino, { type Logger } from "pino";

/** Structured JSON logs; anything that looks like a credential is redacted. */
export function createLogger(level: string): Logger {
  return pino({
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
  });
}

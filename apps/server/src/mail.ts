import { join } from "node:path";
import type { Mailer, Marketplace } from "@psm/core";
import type { Logger } from "pino";
import type { Config } from "./config.js";

/** SMTP when SMTP_URL is set, otherwise .eml files in DATA_DIR/outbox. */
export async function openMailer(config: Config): Promise<Mailer> {
  const { createOutboxMailer, createSmtpMailer } = await import("@psm/adapter-mail");
  return config.smtpUrl
    ? createSmtpMailer({ url: config.smtpUrl, from: config.mailFrom })
    : createOutboxMailer({ dir: join(config.dataDir, "outbox"), from: config.mailFrom });
}

/** A running dispatcher; `stop` waits for the round in progress. */
export interface MailDispatcher {
  /** Runs a round right after the current request (a new reset request should not wait for the next tick). */
  poke(): void;
  stop(): Promise<void>;
}

/**
 * Sends queued mail on a timer, one round at a time. The queue lives in the
 * database, so a restart picks up where the last process left off.
 */
export function startMailDispatcher(
  marketplace: Marketplace,
  logger: Logger,
  intervalMs = 1_000,
): MailDispatcher {
  let running: Promise<void> | undefined;
  let stopped = false;
  const round = () => {
    if (running || stopped) return;
    running = marketplace.mail
      .dispatchDue()
      .then((report) => {
        if (report.sent + report.retried + report.failed > 0) logger.info({ mail: report }, "mail dispatch");
      })
      .catch((error: unknown) => logger.error({ err: error }, "mail dispatch failed"))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(round, intervalMs);
  timer.unref();
  return {
    // On the next turn of the event loop, so the request that pokes is answered
    // first: nothing of the round (a lookup, a queued job, a send) adds to its
    // time. better-sqlite3 would otherwise run the round's first queries on the
    // request's own turn.
    poke: () => {
      setImmediate(round);
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

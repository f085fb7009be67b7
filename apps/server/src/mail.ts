import { join } from "node:path";
import type { Mailer } from "@psm/core";
import type { Config } from "./config.js";

/** SMTP when SMTP_URL is set, otherwise .eml files in DATA_DIR/outbox. */
export async function openMailer(config: Config): Promise<Mailer> {
  const { createOutboxMailer, createSmtpMailer } = await import("@psm/adapter-mail");
  return config.smtpUrl
    ? createSmtpMailer({ url: config.smtpUrl, from: config.mailFrom })
    : createOutboxMailer({ dir: join(config.dataDir, "outbox"), from: config.mailFrom });
}

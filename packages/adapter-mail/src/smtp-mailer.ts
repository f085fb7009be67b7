import type { ConnectionOptions } from "node:tls";
import { MailDeliveryError, type Mailer } from "@psm/core";
import { renderMail } from "./render-mail.js";
import { checkSender } from "./sender.js";
import { toDeliveryError } from "./smtp-errors.js";
import { parseSmtpUrl } from "./smtp-url.js";

/** Options of the SMTP mailer. */
export interface SmtpMailerOptions {
  /** `smtp://user:pass@host:port` (STARTTLS when offered) or `smtps://...` (implicit TLS). */
  url: string;
  /** Sender, e.g. `Marketplace <no-reply@example.com>`. */
  from: string;
  /** Extra TLS settings, e.g. `ca` for a server with a private certificate authority. */
  tls?: ConnectionOptions;
  /** Bound on each network wait (connect, greeting, idle socket) in ms; a whole send gets three times it. */
  timeoutMs?: number;
}

/** A Mailer that delivers over SMTP with nodemailer; failures become MailDeliveryError. */
export function createSmtpMailer(options: SmtpMailerOptions): Mailer {
  const target = parseSmtpUrl(options.url);
  const from = checkSender(options.from);
  const timeout = options.timeoutMs ?? 10_000;
  const server = `${target.host}:${target.port}`;
  // One connection a send, no pool: each send ends in one definite outcome, and a
  // dropped connection is not silently re-queued inside nodemailer behind the
  // dispatcher's back. Reset mail is low volume, so the extra handshakes cost little.
  // nodemailer loads with the first mail: a server that sends none never holds it.
  const makeTransport = async () =>
    (await import("nodemailer")).createTransport({
      host: target.host,
      port: target.port,
      secure: target.secure,
      auth: target.auth,
      tls: options.tls,
      // Short waits, so a dead or stalled server cannot hold a dispatcher's lease.
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout,
      dnsTimeout: timeout,
      // No logger: nodemailer's debug output would include the AUTH exchange.
      logger: false,
      debug: false,
    });
  let transport: ReturnType<typeof makeTransport> | undefined;
  return {
    async send(mail) {
      let rejected: readonly unknown[];
      try {
        // The signal bounds the whole exchange, which a slowly dripping server
        // could otherwise stretch past every per-wait timeout.
        transport ??= makeTransport();
        const info = await (await transport).sendMail({
          ...renderMail(mail, from),
          signal: AbortSignal.timeout(3 * timeout),
        });
        rejected = info.rejected;
      } catch (error) {
        throw toDeliveryError(error, server);
      }
      // With one recipient a refusal arrives as an error; this guards a partial acceptance.
      if (rejected.length > 0) {
        throw new MailDeliveryError(`SMTP server ${server} refused the recipient`, { permanent: true });
      }
    },
    async close() {
      (await transport)?.close();
    },
  };
}

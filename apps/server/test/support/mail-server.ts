/** A server that sends its mail through an SMTP receiver of the test's own: what the mail tests start. */
import type { Harness } from "./harness.js";
import { type ServerProcess, tail } from "./server-process.js";
import type { SmtpReceiver, SmtpReceiverOptions } from "./smtp-receiver.js";

/** A PUBLIC_URL that is not the server's own address: mailed links are read, never fetched. */
export const PUBLIC_URL = "https://market.example";

/** SMTP_URL for a receiver on loopback; `auth` goes into it percent-encoded, as an operator writes it. */
export function smtpUrl(port: number, auth?: { user: string; pass: string }): string {
  const userinfo = auth ? `${encodeURIComponent(auth.user)}:${encodeURIComponent(auth.pass)}@` : "";
  return `smtp://${userinfo}127.0.0.1:${port}`;
}

/** What a mail test acts on. */
export interface MailServer {
  smtp: SmtpReceiver;
  server: ServerProcess;
  /** The server's last log lines, for the message of a wait that timed out. */
  context(): string;
}

/** How `startMailServer` starts the pair. */
export interface MailServerOptions {
  smtp?: SmtpReceiverOptions;
  /** Variables besides SMTP_URL, PUBLIC_URL among them. */
  env?: Record<string, string>;
  /** PUBLIC_URL is the server's own address, so that mailed links can be fetched as they are. */
  selfLinked?: boolean;
}

/** Starts a receiver and a server on a fresh DATA_DIR sending through it; `h` stops both. */
export async function startMailServer(h: Harness, options: MailServerOptions = {}): Promise<MailServer> {
  const smtp = await h.smtp(options.smtp);
  const serverOptions = {
    dataDir: await h.dataDir(),
    env: { SMTP_URL: smtpUrl(smtp.port, options.smtp?.auth), ...options.env },
  };
  const server = options.selfLinked ? await h.selfLinkedServer(serverOptions) : await h.server(serverOptions);
  return { smtp, server, context: () => tail(server.output()) };
}

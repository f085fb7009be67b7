import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
// Type only: the adapter-mail helper already names mailparser's ParsedMail (with its @types).
import type { ReceivedMail as HelperMail } from "@psm/adapter-mail/testing";
import { SMTPServer } from "smtp-server";

/** A message as mailparser reads it. */
export type ParsedMail = HelperMail["parsed"];

// apps/server depends on mailparser but not on its @types, so the one function
// used is loaded through require and given the type adapter-mail's helper uses.
const { simpleParser } = createRequire(import.meta.url)("mailparser") as {
  simpleParser(source: string | Buffer): Promise<ParsedMail>;
};

/** Parses an RFC 5322 message (an .eml file or SMTP DATA) with mailparser. */
export function parseMail(source: string | Buffer): Promise<ParsedMail> {
  return simpleParser(source);
}

/** One message the receiver accepted. */
export interface ReceivedMail {
  raw: string;
  parsed: ParsedMail;
  /** RCPT TO addresses of the SMTP envelope. */
  envelopeTo: string[];
  /** The user the client authenticated as, if it did. */
  authUser: string | undefined;
}

/** How the receiver behaves: its port, whether it requires AUTH, which attempts it refuses. */
export interface SmtpReceiverOptions {
  /** The port to listen on; 0 (default) lets the OS choose. */
  port?: number;
  /** Require AUTH (PLAIN or LOGIN) with exactly these credentials. */
  auth?: { user: string; pass: string };
  /** Asked at each MAIL FROM (1-based count of delivery attempts); true answers 451. */
  refuse?: (attempt: number) => boolean;
}

/** A real SMTP server (smtp-server) on 127.0.0.1 that records what it accepts. */
export interface SmtpReceiver {
  port: number;
  received: ReceivedMail[];
  /** MAIL FROM commands seen: one per delivery attempt. */
  attempts(): number;
  /** MAIL FROM commands answered with 451. */
  refused(): number;
  close(): Promise<void>;
}

/** Starts a receiver; see SmtpReceiverOptions. */
export async function startSmtpReceiver(options: SmtpReceiverOptions = {}): Promise<SmtpReceiver> {
  const received: ReceivedMail[] = [];
  let attempts = 0;
  let refused = 0;
  const required = options.auth;
  const server = new SMTPServer({
    logger: false,
    disabledCommands: ["STARTTLS"],
    authOptional: required === undefined,
    // AUTH over plain TCP: loopback only, and there is no TLS to offer.
    allowInsecureAuth: true,
    authMethods: ["PLAIN", "LOGIN"],
    // Closing must not wait the default 30 s for clients to hang up.
    closeTimeout: 100,
    // The client is always 127.0.0.1; a reverse DNS lookup would only add delay.
    disableReverseLookup: true,
    onAuth(auth, _session, callback) {
      if (required && auth.username === required.user && auth.password === required.pass) {
        callback(null, { user: auth.username });
      } else {
        callback(Object.assign(new Error("Invalid credentials"), { responseCode: 535 }));
      }
    },
    onMailFrom(_address, _session, callback) {
      attempts++;
      if (options.refuse?.(attempts)) {
        refused++;
        callback(Object.assign(new Error("Try again later"), { responseCode: 451 }));
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        // The session object is reused by the connection: copy what matters now.
        const envelopeTo = session.envelope.rcptTo.map((rcpt) => rcpt.address);
        const authUser = typeof session.user === "string" ? session.user : undefined;
        parseMail(raw).then(
          (parsed) => {
            received.push({ raw, parsed, envelopeTo, authUser });
            callback();
          },
          (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
        );
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    received,
    attempts: () => attempts,
    refused: () => refused,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

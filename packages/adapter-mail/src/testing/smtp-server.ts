import type { AddressInfo } from "node:net";
import { createServer } from "node:net";
import type { PasswordResetMail } from "@psm/core";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer, type SMTPServerOptions, type SMTPServerSession } from "smtp-server";

/** One message the test server accepted: the raw bytes, the parsed mail and the SMTP session. */
export interface ReceivedMail {
  raw: string;
  parsed: ParsedMail;
  session: SMTPServerSession;
}

/** A real SMTP server on a loopback port, recording what it accepts. */
export interface TestSmtpServer {
  port: number;
  received: ReceivedMail[];
  close(): Promise<void>;
}

/** An Error the way smtp-server expects a rejection: its `responseCode` becomes the reply code. */
export function smtpReply(responseCode: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode });
}

/** Starts smtp-server on 127.0.0.1 and an OS-chosen port; options override the plain-text, no-AUTH defaults. */
export async function startSmtpServer(options: SMTPServerOptions = {}): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    logger: false,
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    // Closing must not wait for the default 30 s for clients to hang up.
    closeTimeout: 100,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        // The session object is reused by the connection, so keep a copy of what matters now.
        const snapshot = structuredClone({
          envelope: session.envelope,
          secure: session.secure,
          user: session.user,
        });
        simpleParser(raw).then(
          (parsed) => {
            received.push({ raw, parsed, session: { ...session, ...snapshot } });
            callback();
          },
          (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
        );
      });
    },
    ...options,
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return { port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A loopback port nothing listens on: bound by the OS, then released. */
export async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** A reset mail to a recipient with a non-ASCII name, carrying `token` in its link. */
export function resetMail(token: string, to = "zoe@example.com"): PasswordResetMail {
  return {
    kind: "password_reset",
    to,
    displayName: "Zoë Müller",
    resetUrl: `https://market.example/reset-password?token=${token}`,
    expiresInMinutes: 60,
  };
}

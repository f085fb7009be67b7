import type { AddressInfo } from "node:net";
import { createServer, type Socket } from "node:net";
import { MailDeliveryError } from "@psm/core";
import { afterEach, describe, expect, it } from "vitest";
import { createSmtpMailer } from "./smtp-mailer.js";
import {
  closedPort,
  resetMail,
  smtpReply,
  startSmtpServer,
  type TestSmtpServer,
} from "./testing/smtp-server.js";

const FROM = "Marketplace <no-reply@market.example>";

let server: TestSmtpServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function sendError(url: string, timeoutMs?: number): Promise<MailDeliveryError> {
  const mailer = createSmtpMailer({ url, from: FROM, ...(timeoutMs === undefined ? {} : { timeoutMs }) });
  try {
    await mailer.send(resetMail("t0ken"));
  } catch (error) {
    expect(error).toBeInstanceOf(MailDeliveryError);
    return error as MailDeliveryError;
  } finally {
    await mailer.close?.();
  }
  throw new Error("the send was expected to fail");
}

describe("createSmtpMailer failures", () => {
  const rcptReplies = [
    {
      name: "treats a 451 reply to RCPT TO as transient",
      code: 451,
      reply: "Try again later",
      permanent: false,
    },
    {
      name: "treats a 550 reply to RCPT TO (a refused recipient) as permanent",
      code: 550,
      reply: "No such user",
      permanent: true,
    },
  ];
  for (const { name, code, reply, permanent } of rcptReplies) {
    it(name, async () => {
      server = await startSmtpServer({
        onRcptTo: (_a, _s, callback) => callback(smtpReply(code, reply)),
      });
      const error = await sendError(`smtp://127.0.0.1:${server.port}`);
      expect(error.permanent).toBe(permanent);
      expect(error.message).toContain(String(code));
    });
  }

  it("treats a 451 reply after DATA as transient and a 554 as permanent", async () => {
    server = await startSmtpServer({
      onData: (stream, _s, callback) => stream.resume().on("end", () => callback(smtpReply(451, "Busy"))),
    });
    expect((await sendError(`smtp://127.0.0.1:${server.port}`)).permanent).toBe(false);
    await server.close();
    server = await startSmtpServer({
      onData: (stream, _s, callback) =>
        stream.resume().on("end", () => callback(smtpReply(554, "Rejected as spam"))),
    });
    expect((await sendError(`smtp://127.0.0.1:${server.port}`)).permanent).toBe(true);
  });

  it("treats a closed port as transient", async () => {
    const error = await sendError(`smtp://127.0.0.1:${await closedPort()}`);
    expect(error.permanent).toBe(false);
  });

  it("treats rejected credentials as transient, and never shows them", async () => {
    server = await startSmtpServer({
      authOptional: false,
      allowInsecureAuth: true,
      onAuth: (_auth, _s, callback) => callback(smtpReply(535, "Authentication failed")),
    });
    const error = await sendError(`smtp://someone:s3cret-pass@127.0.0.1:${server.port}`);
    expect(error.permanent).toBe(false);
    expect(`${error.message} ${String(error.cause)}`).not.toContain("s3cret-pass");
  });

  // The mailer's default greeting timeout is 10 s: only the 300 ms one given here ends this test in time.
  it("gives up on a server that accepts but never greets, within its timeout", {
    timeout: 8_000,
  }, async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      const error = await sendError(`smtp://127.0.0.1:${port}`, 300);
      expect(error.permanent).toBe(false);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});

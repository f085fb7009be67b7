import type { AddressObject } from "mailparser";
import type { SMTPServerOptions } from "smtp-server";
import { afterEach, describe, expect, it } from "vitest";
import { createSmtpMailer } from "./smtp-mailer.js";
import { type ReceivedMail, resetMail, startSmtpServer, type TestSmtpServer } from "./testing/smtp-server.js";

const FROM = "Märkte Platz <no-reply@market.example>";
const TOKEN = "aB3-_x9QzLr8VvT1uYw2Kk4oPp5Ss6Dd7Ff8Gg9Hh0";

let server: TestSmtpServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function firstAddress(field: AddressObject | AddressObject[] | undefined) {
  const object = Array.isArray(field) ? field[0] : field;
  return object?.value[0];
}

function expectResetMail(mail: ReceivedMail | undefined): void {
  expect(mail).toBeDefined();
  const { parsed, raw, session } = mail!;
  expect(session.envelope.rcptTo.map((rcpt) => rcpt.address)).toEqual(["zoe@example.com"]);
  expect(session.envelope.mailFrom).toMatchObject({ address: "no-reply@market.example" });
  expect(firstAddress(parsed.to)).toEqual({ address: "zoe@example.com", name: "Zoë Müller" });
  expect(firstAddress(parsed.from)).toEqual({ address: "no-reply@market.example", name: "Märkte Platz" });
  expect(parsed.subject).toBe("Reset your password");
  expect(parsed.messageId).toMatch(/^<[^<>@\s]+@[^<>@\s]+>$/);
  expect(Math.abs((parsed.date?.getTime() ?? 0) - Date.now())).toBeLessThan(60_000);
  expect(parsed.headers.get("content-type")).toMatchObject({ value: "multipart/alternative" });
  // Headers travel as 7-bit ASCII; the non-ASCII names are RFC 2047 encoded words.
  const head = raw.slice(0, raw.indexOf("\r\n\r\n"));
  expect(head).not.toMatch(/[^\t\r\n -~]/);
  expect(head).toMatch(/^To: =\?UTF-8\?[QB]\?.+\?= <zoe@example\.com>/m);
  const link = parsed.text?.match(/https:\/\/\S+/)?.[0];
  expect(link).toBe(`https://market.example/reset-password?token=${TOKEN}`);
  expect(new URL(link!).searchParams.get("token")).toBe(TOKEN);
  expect(parsed.text).toContain("expires in 60 minutes");
  expect(parsed.html).toContain(`href="https://market.example/reset-password?token=${TOKEN}"`);
  expect(parsed.html).toContain("expires in 60 minutes");
}

describe("createSmtpMailer", () => {
  it("delivers the reset mail to a server without AUTH", async () => {
    server = await startSmtpServer();
    const mailer = createSmtpMailer({ url: `smtp://127.0.0.1:${server.port}`, from: FROM });
    await mailer.send(resetMail(TOKEN));
    await mailer.close?.();
    expect(server.received).toHaveLength(1);
    expectResetMail(server.received[0]);
  });

  it("logs in with the URL-decoded user and password from the URL", async () => {
    const user = "mailer@market.example";
    const pass = "p@ss:w/rd%20 é";
    server = await startSmtpServer({
      authOptional: false,
      allowInsecureAuth: true,
      onAuth(auth, _session, callback) {
        if (auth.username === user && auth.password === pass) return callback(null, { user: auth.username });
        return callback(new Error("Invalid username or password"));
      },
    });
    const url = `smtp://${encodeURIComponent(user)}:${encodeURIComponent(pass)}@127.0.0.1:${server.port}`;
    const mailer = createSmtpMailer({ url, from: FROM });
    await mailer.send(resetMail(TOKEN));
    await mailer.close?.();
    expect(server.received[0]?.session.user).toBe(user);
    expectResetMail(server.received[0]);
  });

  const tlsCases: { name: string; scheme: "smtp" | "smtps"; options: SMTPServerOptions }[] = [
    {
      name: "upgrades with STARTTLS when the server offers it",
      scheme: "smtp",
      options: { disabledCommands: [] },
    },
    { name: "speaks TLS from the first byte for smtps://", scheme: "smtps", options: { secure: true } },
  ];
  for (const { name, scheme, options } of tlsCases) {
    it(name, async () => {
      server = await startSmtpServer(options);
      // smtp-server's built-in certificate is self-signed.
      const mailer = createSmtpMailer({
        url: `${scheme}://127.0.0.1:${server.port}`,
        from: FROM,
        tls: { rejectUnauthorized: false },
      });
      await mailer.send(resetMail(TOKEN));
      await mailer.close?.();
      expect(server.received[0]?.session.secure).toBe(true);
      expectResetMail(server.received[0]);
    });
  }
});

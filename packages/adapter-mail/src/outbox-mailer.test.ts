import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MailDeliveryError } from "@psm/core";
import { simpleParser } from "mailparser";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createOutboxMailer } from "./outbox-mailer.js";
import { resetMail } from "./testing/smtp-server.js";

const FROM = "Marketplace <no-reply@localhost>";
const EML_NAME = /^\d{8}T\d{9}Z-[0-9a-f]{12}\.eml$/;

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "psm-outbox-"));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("createOutboxMailer", () => {
  it("writes one complete .eml file, creating the folder, with no temp file left", async () => {
    const dir = join(root, "data", "outbox");
    const mailer = createOutboxMailer({ dir, from: FROM });
    await mailer.send(resetMail("tok-123_ABC"));
    await mailer.close?.();

    const entries = await readdir(dir);
    expect(entries).toHaveLength(1);
    const [name] = entries;
    expect(name).toMatch(EML_NAME);
    if (process.platform !== "win32") {
      expect((await stat(dir)).mode & 0o777).toBe(0o700);
      expect((await stat(join(dir, name!))).mode & 0o777).toBe(0o600);
    }

    const raw = await readFile(join(dir, name!));
    // RFC 5322 line ends, so mail clients open the file as they would a received message.
    expect(raw.toString("latin1")).toMatch(/^From: Marketplace <no-reply@localhost>\r$/m);
    expect(raw.toString("latin1")).not.toMatch(/[^\r]\n/);
    const parsed = await simpleParser(raw);
    expect(parsed.subject).toBe("Reset your password");
    expect(parsed.messageId).toMatch(/^<.+@localhost>$/);
    expect(parsed.date).toBeInstanceOf(Date);
    expect(parsed.headers.get("content-type")).toMatchObject({ value: "multipart/alternative" });
    expect(parsed.headers.get("auto-submitted")).toBe("auto-generated");
    const to = Array.isArray(parsed.to) ? parsed.to[0] : parsed.to;
    expect(to?.value).toEqual([{ address: "zoe@example.com", name: "Zoë Müller" }]);
    const link = "https://market.example/reset-password?token=tok-123_ABC";
    expect(parsed.text).toContain(link);
    expect(parsed.html).toContain(`href="${link}"`);
  });

  it("gives every mail its own file", async () => {
    const mailer = createOutboxMailer({ dir: root, from: FROM });
    await Promise.all([
      mailer.send(resetMail("one")),
      mailer.send(resetMail("two")),
      mailer.send(resetMail("three")),
    ]);
    const entries = await readdir(root);
    expect(entries).toHaveLength(3);
    for (const name of entries) expect(name).toMatch(EML_NAME);
    const texts = await Promise.all(
      entries.map(async (name) => (await simpleParser(await readFile(join(root, name)))).text),
    );
    expect(texts.map((text) => text?.match(/token=(\w+)/)?.[1]).sort()).toEqual(["one", "three", "two"]);
  });

  it("fails with a transient MailDeliveryError when the folder cannot be made", async () => {
    const blocker = join(root, "not-a-folder");
    await writeFile(blocker, "");
    const mailer = createOutboxMailer({ dir: join(blocker, "outbox"), from: FROM });
    const error = await mailer.send(resetMail("tok")).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MailDeliveryError);
    expect((error as MailDeliveryError).permanent).toBe(false);
  });
});

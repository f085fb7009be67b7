/** Reads the `.eml` files the outbox mailers of several processes wrote. */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

/** One mail as written: its file, recipient and the token of its link. */
export interface OutboxMail {
  file: string;
  to: string;
  token: string;
}

/** Undoes quoted-printable: soft line breaks, then =XX escapes (the token's "=" is written "=3D"). */
function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/** The page a mailed link opens: the reset form, or the address verification sent at sign-up. */
export type MailLink = "reset-password" | "verify-email";

/**
 * Every complete mail in `dir`/outbox with a `link` (reset by default), its
 * recipient and token; temporary files start with a dot and are skipped, and
 * so are mails of the other kind.
 */
export async function readOutbox(dataDir: string, link: MailLink = "reset-password"): Promise<OutboxMail[]> {
  const dir = join(dataDir, "outbox");
  const names = await readdir(dir).catch(() => [] as string[]);
  const mails: OutboxMail[] = [];
  for (const name of names.filter((n) => n.endsWith(".eml") && !n.startsWith("."))) {
    const raw = decodeQuotedPrintable(await readFile(join(dir, name), "utf8"));
    const token = new RegExp(`/${link}\\?token=([A-Za-z0-9_-]+)`).exec(raw)?.[1];
    if (!token) continue;
    const to = /^To:.*<([^>]+)>/m.exec(raw)?.[1];
    if (!to) throw new Error(`${name}: no recipient found`);
    mails.push({ file: join(dir, name), to, token });
  }
  return mails;
}

/** The mails of several processes' outboxes together. */
export async function readOutboxes(dataDirs: string[]): Promise<OutboxMail[]> {
  return (await Promise.all(dataDirs.map((dir) => readOutbox(dir)))).flat();
}

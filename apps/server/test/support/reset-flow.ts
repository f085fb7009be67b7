/** The password-reset flow over the API, and the reset mail an SMTP receiver got. */
import { expect } from "vitest";
import { signUp } from "./accounts.js";
import { call } from "./http.js";
import type { ParsedMail, SmtpReceiver } from "./smtp-receiver.js";
import { waitFor } from "./wait.js";

/** Asks for a reset mail and expects the one answer every address gets: 200 {success: true}. */
export async function requestReset(base: string, email: string): Promise<void> {
  const res = await call(base, "POST", "/api/auth/reset-password", { body: { email } });
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ success: true });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The reset links `${publicUrl}/reset-password?token=...` found in `text`. */
export function resetLinks(text: string, publicUrl: string): { link: string; token: string }[] {
  // Tokens are base64url: the link needs no escaping in text or HTML.
  const pattern = new RegExp(`${escapeRegExp(publicUrl)}/reset-password\\?token=([A-Za-z0-9_-]+)`, "g");
  return [...text.matchAll(pattern)].map((m) => ({ link: m[0], token: m[1] ?? "" }));
}

/**
 * Checks what every reset mail must carry (recipient, subject, Message-ID,
 * Date, the link in both parts) and returns its link and token.
 */
export function expectResetMail(
  mail: ParsedMail,
  to: string,
  publicUrl: string,
): { link: string; token: string } {
  expect(mail.to && !Array.isArray(mail.to) ? mail.to.value.map((a) => a.address) : []).toEqual([to]);
  expect(mail.subject).toMatch(/reset your password/i);
  expect(mail.messageId).toMatch(/^<[^<>@\s]+@[^<>@\s]+>$/);
  expect(mail.date).toBeInstanceOf(Date);
  expect(Number.isNaN(mail.date?.getTime())).toBe(false);
  const inText = resetLinks(mail.text ?? "", publicUrl);
  const inHtml = resetLinks(typeof mail.html === "string" ? mail.html : "", publicUrl);
  expect(inText.length).toBeGreaterThan(0);
  expect(inHtml.length).toBeGreaterThan(0);
  const first = inText[0]!;
  // One link, the same in both parts.
  expect(new Set([...inText, ...inHtml].map((l) => l.token))).toEqual(new Set([first.token]));
  // 32 random bytes, base64url without padding.
  expect(first.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  return first;
}

/**
 * Reset mail the receiver got for one address. The verification mail every
 * sign-up sends is left out: these tests count reset mail.
 */
export function mailsTo(receiver: SmtpReceiver, address: string): ParsedMail[] {
  return receiver.received
    .filter((m) => m.envelopeTo.includes(address) && /reset your password/i.test(m.parsed.subject ?? ""))
    .map((m) => m.parsed);
}

/** Waits until `count` reset mails to `address` have arrived and returns them. */
export function waitForMails(
  receiver: SmtpReceiver,
  address: string,
  count: number,
  context?: () => string,
): Promise<ParsedMail[]> {
  return waitFor(
    `${count} mail(s) to ${address} (have ${mailsTo(receiver, address).length})`,
    () => {
      const mails = mailsTo(receiver, address);
      return mails.length >= count ? mails : undefined;
    },
    { context },
  );
}

/**
 * Proves nothing more is on its way to the addresses already checked: a
 * sentinel user asks for a reset after them, and once its mail is in, every
 * job queued before it has been sent (one process claims jobs oldest due
 * first and sends them one after another).
 */
export async function drainWithSentinel(
  base: string,
  receiver: SmtpReceiver,
  context?: () => string,
): Promise<void> {
  const email = `sentinel-${Math.random().toString(36).slice(2)}@example.com`;
  await signUp(base, email, "sentinel-password");
  await requestReset(base, email);
  await waitForMails(receiver, email, 1, context);
}

/**
 * The reset mail to `email`, delivered exactly once: waits for it, checks it
 * (expectResetMail), proves through `base` that no second one follows
 * (drainWithSentinel), and answers its token.
 */
export async function deliveredOnce(
  base: string,
  receiver: SmtpReceiver,
  email: string,
  publicUrl: string,
  context?: () => string,
): Promise<string> {
  const [mail] = await waitForMails(receiver, email, 1, context);
  const { token } = expectResetMail(mail!, email, publicUrl);
  await drainWithSentinel(base, receiver, context);
  expect(mailsTo(receiver, email)).toHaveLength(1);
  return token;
}

/** The form a GET of the link serves: its action, method and fields. */
export function readResetForm(html: string): {
  action: string;
  method: string;
  fields: Map<string, { type: string; value: string }>;
} {
  const form = /<form\b([^>]*)>([\s\S]*?)<\/form>/i.exec(html);
  expect(form, "the page has a form").not.toBeNull();
  const attr = (tag: string, name: string) => new RegExp(`\\b${name}="([^"]*)"`, "i").exec(tag)?.[1] ?? "";
  const fields = new Map<string, { type: string; value: string }>();
  for (const [input] of (form?.[2] ?? "").matchAll(/<input\b[^>]*>/gi)) {
    fields.set(attr(input, "name"), { type: attr(input, "type"), value: attr(input, "value") });
  }
  return { action: attr(form?.[1] ?? "", "action"), method: attr(form?.[1] ?? "", "method"), fields };
}

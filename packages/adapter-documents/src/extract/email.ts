import type { ExtractedField } from "@psm/core";
import { snippet, take } from "./normalize.js";

// Local part and domain bounded as RFC 5321 bounds them, so a long run cannot make this slow.
const EMAIL =
  /(?<![\w.+-])[a-z0-9](?:[a-z0-9._%+-]{0,63})@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.){1,8}[a-z]{2,24}(?![\w-])/gi;
// "name [at] domain [dot] com" and "name (at) domain.com", as people write to dodge scrapers.
const OBFUSCATED =
  /\b([a-z0-9._%+-]{1,64})\s*[[(]\s*at\s*[\])]\s*([a-z0-9-]{1,63}(?:\s*(?:[[(]\s*dot\s*[\])]|\.)\s*[a-z0-9-]{1,63}){1,4})\b/gi;

const CONTACT_WORDS =
  /\b(contact|e-?mail|mail|reach|write|enquir\w*|inquir\w*|questions?|get in touch|talk|book|call|send|drop us|sales|hello)\b/i;
const AWAY_WORDS =
  /\b(privacy|unsubscribe|complaints?|press|media|careers?|jobs|billing|invoices?|accounts payable|former|old|no longer|not monitored|not read|do not|don't|example|such as|placeholder|client|customer|testimonial|abuse|webmaster|dpo)\b|e\.g\./i;
const NO_REPLY = /(^|[-_.])(no-?reply|do-?not-?reply|donotreply|mailer-daemon|postmaster|bounces?)$/i;
const GOOD_LOCAL =
  /^(hello|hi|contact|info|sales|team|enquiries|inquiries|projects?|book|work|studio|office)$/i;
const BAD_LOCAL =
  /^(privacy|unsubscribe|abuse|webmaster|billing|invoices?|accounts|press|media|careers|jobs|dpo|complaints)$/i;
// RFC 2606 names: never a real address, so never the answer.
const RESERVED = /(^|\.)(example\.(com|org|net)|example|test|invalid|localhost)$/i;

interface Candidate {
  email: string;
  index: number;
  score: number;
}

function score(text: string, email: string, index: number): number {
  const [local = "", domain = ""] = email.split("@");
  // The words before an address on its own line speak for it; a label alone on the line above
  // ("Contact:") does too when the address starts its line.
  const lineStart = text.lastIndexOf("\n", index - 1) + 1;
  let before = text.slice(Math.max(lineStart, index - 80), index);
  if (before.trim().length < 3) before = text.slice(text.lastIndexOf("\n", lineStart - 2) + 1, lineStart);
  const after = text.slice(index + email.length, index + email.length + 40).split("\n")[0] ?? "";
  let s = 1;
  if (CONTACT_WORDS.test(before)) s += 3;
  if (AWAY_WORDS.test(before) || AWAY_WORDS.test(after)) s -= 3;
  if (GOOD_LOCAL.test(local)) s += 1;
  if (BAD_LOCAL.test(local)) s -= 2;
  if (NO_REPLY.test(local)) s -= 10;
  if (RESERVED.test(domain) || /^(your|you|name|user|firstname|first\.last|someone)$/i.test(local)) s -= 20;
  return s;
}

/** Every address written in the text, obfuscated ones unfolded, with its offset. */
export function findEmails(text: string): { email: string; index: number }[] {
  // At most 100 of each form: a real document names a few addresses, a hostile one millions.
  const found = take(text.matchAll(EMAIL), 100).map((m) => ({
    email: m[0].toLowerCase(),
    index: m.index,
  }));
  for (const m of take(text.matchAll(OBFUSCATED), 100)) {
    const domain = (m[2] ?? "").replace(/\s*(?:[[(]\s*dot\s*[\])]|\.)\s*/gi, ".");
    found.push({ email: `${m[1]}@${domain}`.toLowerCase(), index: m.index });
  }
  return found.sort((a, b) => a.index - b.index);
}

/**
 * The provider's contact address: each address is scored by the words around it (contact,
 * email, reach... for; privacy, press, former, example... against) and by its local part;
 * no-reply addresses lose to any other; reserved example domains and placeholders are never
 * answered. The best scored wins, the earliest on a tie; null when there is none.
 */
export function extractEmail(text: string): ExtractedField<string | null> {
  let best: Candidate | null = null;
  for (const { email, index } of findEmails(text)) {
    const s = score(text, email, index);
    if (best === null || s > best.score) best = { email, index, score: s };
  }
  // No-reply and placeholder addresses are never answered, whatever else the text holds.
  if (best === null || best.score <= -8) return { value: null, confidence: 0.7, source: null };
  const lineStart = text.lastIndexOf("\n", best.index) + 1;
  const lineEnd = text.indexOf("\n", best.index);
  const confidence = Math.max(0.1, Math.min(0.95, 0.5 + best.score * 0.1));
  return {
    value: best.email.replace(/\.+$/, ""),
    confidence,
    source: snippet(text.slice(lineStart, lineEnd < 0 ? undefined : lineEnd)),
  };
}

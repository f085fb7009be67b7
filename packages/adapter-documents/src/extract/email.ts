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
// Addresses written to be replaced: judged by their local part and the words around them, never
// by the domain (a real provider may well use an example.com address in a flyer to try us out).
const PLACEHOLDER_LOCAL =
  /^(you|your|yours|name|names|user|username|email|e-?mail|address|someone|somebody|anyone|x{2,}|abc|foo|bar|test|firstname|lastname|first[._-]?last|firstname[._-]?lastname|your[._-]?(name|email|address|company)|company[._-]?name|(john|jane)[._-]?doe)$/i;
const PLACEHOLDER_WORDS =
  /\b(e\.g\.|eg\.|for example|for instance|such as|replace[ds]?|replacing|placeholder|sample|dummy|fill in|enter your)(?![\w])/i;

interface Candidate {
  email: string;
  index: number;
  score: number;
}

/** The text of the address's line before it (at most 80 characters), or of the line above when the address starts its line. */
function wordsBefore(text: string, index: number): string {
  const window = text.slice(Math.max(0, index - 80), index);
  const newline = window.lastIndexOf("\n");
  const sameLine = newline < 0 ? window : window.slice(newline + 1);
  if (sameLine.trim().length >= 3 || newline < 0) return sameLine;
  // Bounded like the rest: a label on the line above ("Contact:") is short.
  const lineStart = index - window.length + newline + 1;
  const above = text.slice(Math.max(0, lineStart - 81), Math.max(0, lineStart - 1));
  return above.slice(above.lastIndexOf("\n") + 1);
}

function score(text: string, email: string, index: number): number {
  const [local = ""] = email.split("@");
  const before = wordsBefore(text, index);
  const after = text.slice(index + email.length, index + email.length + 60).split("\n")[0] ?? "";
  let s = 1;
  if (CONTACT_WORDS.test(before)) s += 3;
  if (AWAY_WORDS.test(before) || AWAY_WORDS.test(after.slice(0, 40))) s -= 3;
  if (GOOD_LOCAL.test(local)) s += 1;
  if (BAD_LOCAL.test(local)) s -= 2;
  if (NO_REPLY.test(local)) s -= 10;
  if (PLACEHOLDER_LOCAL.test(local) || PLACEHOLDER_WORDS.test(before) || PLACEHOLDER_WORDS.test(after))
    s -= 20;
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
 * no-reply addresses lose to any other. Placeholders are never answered: a local part written
 * to be replaced (you@, name@, your.name@, user@, xxx@, ...) or words around it that say so
 * ("e.g.", "for example", "such as", "replace"); the domain decides nothing (`jane@example.com`
 * after "Contact:" is an answer). The best scored wins, the earliest on a tie; null when none.
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

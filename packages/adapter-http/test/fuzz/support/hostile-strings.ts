import fc from "fast-check";

/**
 * Strings that tend to change on their way into storage, in two families:
 * storable ones (any Unicode a backend must keep exactly: every plane,
 * controls, combining marks, bidi and zero-width characters, noncharacters,
 * the byte-order mark, surrogate *pairs*), and ill-formed ones (a NUL or a
 * lone surrogate somewhere in otherwise fine text), which must be refused.
 */

/** Storable characters that broke something somewhere: each stays as it is. */
export const TRICKY_STORABLE = [
  "\u0001",
  "\u0008\u000b\u000c\u001b\u001f\u007f",
  "\u0085\u00a0",
  "\u200b\u200c\u200d\u2060",
  "\u202e\u202d\u2066\u2069",
  "\u2028\u2029",
  "\ufeff",
  "\ufffd",
  "\ufffe\uffff",
  "\ud800\udc00",
  "\udbff\udfff",
  "😀",
  "👩‍👩‍👧‍👦",
  "🏳️‍🌈",
  "e\u0301\u0301\u0301",
  "Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǧ̗͚̚o̙̔ͮ̇͐̇",
  "ﷺ",
  "İıſK",
  "ß",
  "Å",
  "%00",
  "\\u0000",
  "\\ud800",
  "'\"`;--",
  "$" + "{{7*7}}",
  "\r\n\t",
] as const;

/** The ill-formed pieces: NUL, each kind of lone surrogate, a reversed pair. */
export const ILL_FORMED_PIECES = ["\0", "\ud800", "\udbff", "\udc00", "\udfff", "\udc00\ud800"] as const;

/** Any storable string: well-formed UTF-16 without NUL, from every plane, and the tricky ones above. */
export function storableString(maxLength = 30): fc.Arbitrary<string> {
  return fc.oneof(
    fc.string({ unit: "binary", maxLength }).map((s) => s.replaceAll("\0", "")),
    fc.string({ unit: "grapheme", maxLength }),
    fc.constantFrom(...TRICKY_STORABLE),
    fc
      .array(fc.constantFrom(...TRICKY_STORABLE), { minLength: 1, maxLength: 4 })
      .map((parts) => parts.join("")),
  );
}

/** A storable string with at least one visible letter around it (for fields that trim and need 1+ characters). */
export function storableText(maxLength = 30): fc.Arbitrary<string> {
  return fc.tuple(storableString(maxLength), storableString(maxLength)).map(([a, b]) => `x${a}y${b}z`);
}

/** Fine text with a NUL or a lone surrogate put somewhere in it: must always be refused. */
export function illFormedString(maxLength = 20): fc.Arbitrary<string> {
  return fc
    .tuple(storableString(maxLength), fc.constantFrom(...ILL_FORMED_PIECES), storableString(maxLength))
    .filter(([before, , after]) => !/[\ud800-\udbff]$/.test(before) && !/^[\udc00-\udfff]/.test(after))
    .map(([before, piece, after]) => `${before}${piece}${after}`);
}

/** Whether a string holds a NUL or a lone surrogate (the generator's own check, independent of core). */
export function isIllFormed(value: string): boolean {
  return /\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(value);
}

/**
 * Percent-encodes any string, lone surrogates included (as the three bytes WTF-8 gives them,
 * which no UTF-8 decoder accepts): how a client would put ill-formed text into a URL, where
 * encodeURIComponent throws instead.
 */
export function percentEncodeAny(value: string): string {
  let out = "";
  for (const char of value) {
    const unit = char.charCodeAt(0);
    if (char.length === 1 && unit >= 0xd800 && unit <= 0xdfff) {
      const bytes = [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)];
      out += bytes.map((byte) => `%${byte.toString(16).toUpperCase()}`).join("");
    } else out += encodeURIComponent(char);
  }
  return out;
}

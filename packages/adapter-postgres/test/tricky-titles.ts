/** Titles and ids shared by title-grams.test.ts and listing-search-short.test.ts. */

export const NOW = new Date("2026-03-01T12:00:00.000Z");

// Titles where characters are not what they seem: LIKE's wildcards and escape,
// precomposed and combining accents, letters whose lower case is longer or
// context-dependent, fullwidth forms, letter-like symbols, and characters
// outside the Basic Multilingual Plane (two UTF-16 units, one code point).
export const TITLES = [
  "50% discount audit",
  "a_b testing playbook",
  "C\\D migration plan",
  "100% _real_ \\\\ path",
  "Café CRÈME roasting",
  "Cafe\u0301 de\u0301cor consulting",
  "STRAẞE planning",
  "İSTANBUL office setup",
  "ΟΔΟΣ ΣΟΦΙΑΣ strategy",
  "ＦＵＬＬＷＩＤＴＨ ａｐｐ",
  "5 \u212A resistor, 10 \u2126 load",
  "ǅungla review",
  "𐐀𐐁 Deseret primer",
  "😀 emoji 🎉 party",
  "c++ & c# shop",
  "x.y release",
  "a b c d",
  "Q",
  "日本語 サービス",
];

/** A UUIDv7-shaped id for millisecond `ms` whose tail orders rows of one millisecond by `n`. */
export function idAt(ms: number, n: number): string {
  const hex = ms.toString(16).padStart(12, "0");
  const tail = n.toString(16).padStart(15, "0");
  return `${hex.slice(0, 8)}-${hex.slice(8)}-7000-8${tail.slice(0, 3)}-${tail.slice(3)}`;
}

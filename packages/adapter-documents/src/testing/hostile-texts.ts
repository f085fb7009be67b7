/**
 * Text shapes that make naive extractors super-linear (backtracking over digit groups, growing
 * strings, runs of separators), each of about `n` characters. Shared by the linearity property
 * tests and the HTTP security tests, which upload them.
 */
export const HOSTILE_TEXTS: Readonly<Record<string, (n: number) => string>> = {
  /** Digit groups that never end in a currency: the money regexes' worst case. */
  digitGroups: (n) => `1 ${"111 ".repeat(n / 4)}`,
  commaGroups: (n) => `$1${",111".repeat(n / 4)},1`,
  dotGroups: (n) => `1${".111".repeat(n / 4)} EUR`,
  digitRun: (n) => "1".repeat(n),
  currencyRun: (n) => "$ 1 ".repeat(n / 4),
  rangeRun: (n) => "1 - ".repeat(n / 4),
  /** One paragraph broken into many lower-case lines: joined by growing one string. */
  paragraphLines: (n) => "and more words\n".repeat(n / 15),
  separatorLine: (n) => `Title\n${"\u2028".repeat(n)}x`,
  innerSeparators: (n) => `Heading a${"\u2028".repeat(n)}b`,
  innerSpaces: (n) => `Heading a${" ".repeat(n)}b -`,
  dashLine: (n) => `${"- ".repeat(n / 2)}x`,
  starLine: (n) => `${"*".repeat(n)}x`,
  /** Almost-addresses: local parts, at signs and dotted domains with no end. */
  atRun: (n) => "a@".repeat(n / 2),
  dottedDomain: (n) => `x@${"a.".repeat(n / 2)}`,
  hyphenDomain: (n) => `x@${"a-".repeat(n / 2)}`,
  obfuscatedRun: (n) => "a [at] b [dot] ".repeat(n / 15),
  spacedAt: (n) => "a @ ".repeat(n / 4),
  contactLines: (n) => "Contact:\n".repeat(n / 9),
  /** Words: one endless token, many links, many repeats. */
  longWord: (n) => "a".repeat(n),
  links: (n) => "http://a ".repeat(n / 9),
  pageNumbers: (n) => "Page 1 of 2\n".repeat(n / 12),
  controlMix: (n) => "a\u0001".repeat(n / 2),
  /** PDF keywords: a stream with no dictionary, again and again (quadratic for a guard that looks back from each). */
  streamKeywords: (n) => "stream\nendstream\n".repeat(n / 17),
  unclosedObjects: (n) => "1 0 obj << /Filter [".repeat(n / 20),
};

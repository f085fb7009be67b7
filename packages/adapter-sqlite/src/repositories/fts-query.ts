// FTS5 queries over the folded title (core's foldSearchText, which the
// repository applies to titles and terms alike; SQLite's lower() and NOCASE
// fold ASCII only, so folding happens in JS, never in SQL).

/** The FTS5 trigram tokenizer indexes substrings of 3 Unicode characters. */
export const TRIGRAM = 3;

/** An FTS5 string literal: every character inside is literal; `"` is doubled. */
function quote(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

/** The distinct trigrams of `folded` (3+ code points), each an FTS5 query of one term. */
export function ftsTrigrams(folded: string): string[] {
  const chars = [...folded];
  const trigrams = new Set<string>();
  for (let i = 0; i + TRIGRAM <= chars.length; i++) trigrams.add(chars.slice(i, i + TRIGRAM).join(""));
  return [...trigrams].map(quote);
}

/** Trigrams an AND holds at most: each is one more doclist to seek in per candidate. */
export const MAX_AND = 3;

/** An FTS5 query for rows holding every one of `terms` (queries of one term each). */
export function ftsAll(terms: readonly string[]): string {
  return terms.join(" AND ");
}

/** An FTS5 query for rows holding any of `terms` (index terms from the vocabulary). */
export function ftsAny(terms: readonly string[]): string {
  return terms.map(quote).join(" OR ");
}

/**
 * The vocabulary range of the trigrams that start with `prefix` (1 or 2 code
 * points): from the prefix itself to the prefix followed by the greatest code
 * points (UTF-8 byte order is code point order).
 */
export function trigramRange(prefix: string): { low: string; high: string } {
  return { low: prefix, high: `${prefix}\u{10FFFF}\u{10FFFF}` };
}

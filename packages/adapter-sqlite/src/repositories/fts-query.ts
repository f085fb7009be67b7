// FTS5 queries over the folded title (core's foldSearchText, which the
// repository applies to titles and terms alike; SQLite's lower() and NOCASE
// fold ASCII only, so folding happens in JS, never in SQL).

/** The FTS5 trigram tokenizer indexes substrings of 3 Unicode characters. */
export const TRIGRAM = 3;

/** An FTS5 string literal: every character inside is literal; `"` is doubled. */
function quote(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

/**
 * Trigrams a cover keeps at most: every one is a doclist that each candidate
 * steps through, so a long phrase of common trigrams would cost its length per
 * candidate; the exact check drops what fewer trigrams let through.
 */
export const MAX_COVER = 8;

/**
 * An FTS5 query for rows holding every trigram of a cover of `folded` (3+
 * code points): those at 0, 3, 6, ... and the last one, at most MAX_COVER of
 * them spread over the term. Rows with the substring hold all of them; the
 * few others are dropped by the exact instr() check that runs beside it.
 * Fewer trigrams than all of them means fewer doclists to walk.
 */
export function ftsCover(folded: string): string {
  const chars = [...folded];
  const trigrams = new Set<string>();
  for (let i = 0; i + TRIGRAM <= chars.length; i += TRIGRAM)
    trigrams.add(chars.slice(i, i + TRIGRAM).join(""));
  trigrams.add(chars.slice(-TRIGRAM).join(""));
  const all = [...trigrams];
  const kept =
    all.length <= MAX_COVER
      ? all
      : Array.from(
          { length: MAX_COVER },
          (_, i) => all[Math.round((i * (all.length - 1)) / (MAX_COVER - 1))],
        );
  return kept.map((trigram) => quote(trigram as string)).join(" AND ");
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

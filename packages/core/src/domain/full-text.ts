import { holdsLastWord, lastWordOf } from "./last-word.js";
import { porterStem } from "./porter-stem.js";

/**
 * Full-text search (`q`): what a query's words mean, defined once. Storages
 * use their engine's machinery (SQLite FTS5 `porter unicode61
 * remove_diacritics 2`, PostgreSQL a `tsvector` with `unaccent` and the
 * English stemmer); the in-memory storage applies these functions, and the
 * contract suite holds all three to them.
 */

/** The longest `q` accepted, in characters. */
export const QUERY_MAX_LENGTH = 200;
/** The most words a `q` may hold: each is one more index lookup. */
export const QUERY_MAX_WORDS = 8;

/**
 * The words of a text, as the engines' tokenizers cut them: lower-cased,
 * accents removed (café = cafe), split at anything not a letter or digit.
 * Letters without a decomposition (ß, ø, æ) stay as they are here; the
 * engines fold some of them differently, so the contract does not pin them.
 */
export function searchWords(text: string): string[] {
  return foldText(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== "");
}

/** A text as the tokenizers read it before they cut it into words: lower-cased, accents removed. */
export function foldText(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase();
}

// Stems remembered: listings draw on a vocabulary far smaller than their
// words, and a storage that checks rows in JS stems the same words again and
// again. Bounded, and emptied when full, so hostile text cannot grow it.
const STEMS = new Map<string, string>();
const STEMS_KEPT = 20_000;

/** The stem of one word (from searchWords), as the engines' English stemmer gives it; memoised. */
export function stemOf(word: string): string {
  let found = STEMS.get(word);
  if (found === undefined) {
    found = porterStem(word);
    if (STEMS.size >= STEMS_KEPT) STEMS.clear();
    STEMS.set(word, found);
  }
  return found;
}

/** The stems of a text's words: the terms a full-text index holds for it. */
export function stemsOf(text: string): Set<string> {
  return new Set(searchWords(text).map(stemOf));
}

/**
 * Whether `stems` (a document's, or its title's) hold every query word: the
 * stem of each word, and for the last word what a word being typed matches
 * (last-word.ts). `words` come from searchWords.
 */
export function holdsEveryWord(stems: ReadonlySet<string>, words: readonly string[]): boolean {
  return words.every((word, i) =>
    i === words.length - 1 ? holdsLastWord(stems, lastWordOf(word)) : stems.has(stemOf(word)),
  );
}

/** A listing's text as full-text search reads it, each part worked out once, when first asked for. */
export interface ListingText {
  /** The stems of the title. */
  titleStems(): ReadonlySet<string>;
  /** The stems of the title and the description together. */
  stems(): ReadonlySet<string>;
}

/** The ListingText of `listing`, lazily: matching many queries against one listing stems it once. */
export function listingText(listing: { title: string; description: string }): ListingText {
  let title: Set<string> | undefined;
  let all: Set<string> | undefined;
  const titleStems = () => {
    title ??= stemsOf(listing.title);
    return title;
  };
  return {
    titleStems,
    stems() {
      all ??= new Set([...titleStems(), ...stemsOf(listing.description)]);
      return all;
    },
  };
}

/**
 * A listing's relevance rank for `words`: 0 when its title alone holds every
 * word, 1 when it needs the description too, null when it does not match.
 */
export function relevanceRank(
  listing: { title: string; description: string } | ListingText,
  words: readonly string[],
): 0 | 1 | null {
  const text = "stems" in listing ? listing : listingText(listing);
  if (holdsEveryWord(text.titleStems(), words)) return 0;
  return holdsEveryWord(text.stems(), words) ? 1 : null;
}

import { type LastWord, lastWordOf, lastWordWithin, porterStem } from "@psm/core";

// The FTS5 query of a find's words (core's full text, as FTS5 can ask it).

/** An FTS5 string: every character inside is literal (the words hold only letters and digits anyway). */
function quote(word: string): string {
  return `"${word.replaceAll('"', '""')}"`;
}

/** What an index holds (FtsPlanner's answers). */
export type Vocabulary = { beginsAny(prefix: string): boolean; holds(term: string): boolean };

/** The prefix lengths the FTS index keeps (migrations/0009_fulltext.sql `prefix`). */
export const PREFIX_LENGTHS = [1, 2, 3, 4, 5, 6];
const LONGEST_PREFIX = 6;

/**
 * The FTS5 term for the last word (core's LastWord): its stem as a prefix when
 * that is all it matches and the index keeps prefixes that long (one doclist,
 * read lazily); else a shorter prefix that every stem it matches begins with
 * (a superset, `exact` false: rows are then checked in JS). FTS5 stems the
 * term again, so the prefix is one that stemming leaves a prefix of them.
 * Without a prefix index FTS5 would merge the doclists of every term the
 * prefix begins before yielding a row: a cost that grows with the table
 * (DESIGN.md "Full-text search"). With the index's `vocabulary`, what it
 * lacks is left out first (core's lastWordWithin): a whole word is seldom
 * completed to a stem any listing holds, and then keeps its exact lookup.
 */
export function lastWordTerm(
  word: string,
  vocabulary?: Vocabulary,
): { term: string; exact: boolean; last: LastWord } {
  const last = vocabulary ? lastWordWithin(lastWordOf(word), vocabulary) : lastWordOf(word);
  const only = last.prefixes.length === 1 && last.completions.length === 0;
  if (only && [...last.common].length <= LONGEST_PREFIX) return { term: word, exact: true, last };
  const common = [...last.common];
  for (let length = Math.min(LONGEST_PREFIX, common.length); length >= 1; length--) {
    const prefix = common.slice(0, length).join("");
    const again = porterStem(prefix);
    if (last.common.startsWith(again) && PREFIX_LENGTHS.includes([...again].length))
      return { term: prefix, exact: false, last };
  }
  // Not reached: a prefix of one letter is left as it is, and stemming keeps a word's first letter.
  return { term: word, exact: true, last };
}

/** An FTS5 query for `words`, and whether it answers them exactly (else rows are checked in JS). */
export interface FtsQuery {
  /** Every word, the last also as a prefix, in any column (on listings_title: relevance rank 0). */
  all: string;
  /** Relevance rank 1: every word, not all in the title (exact), or the same as `all` (checked). */
  rest: string;
  exact: boolean;
  /** Each word alone (the last as a prefix): the streams of a plan (fts-plan.ts), on either index. */
  terms: string[];
  /** The last word as a whole stem, when `exact` is false: rows holding it hold the prefix too. */
  sure?: string;
  /** The last word, when `exact` is false: a row matches only if one of its terms is one it matches. */
  last?: LastWord;
}

export function ftsQuery(words: readonly string[], vocabulary?: Vocabulary): FtsQuery {
  const last = lastWordTerm(words.at(-1) ?? "", vocabulary);
  const terms = [...words.slice(0, -1).map(quote), `${quote(last.term)} *`];
  const all = terms.join(" AND ");
  const query: FtsQuery = {
    all,
    // On listings_text, whose `{title}` filter answers "not all in the title" as rank 1 needs.
    rest: last.exact ? `(${all}) NOT {title} : (${all})` : all,
    exact: last.exact,
    terms,
  };
  if (!last.exact) {
    query.sure = quote(words.at(-1) ?? "");
    query.last = last.last;
  }
  return query;
}

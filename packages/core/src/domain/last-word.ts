import { porterStem } from "./porter-stem.js";

/**
 * A query's last word may be one being typed (decisions.md: "every word must match, the last one
 * also as a prefix"). Its stem alone does not say which words it begins: "consulti" stems to
 * itself, while "consulting" is indexed as "consult"; "pay" stems to "pai", while "payment" and
 * "payroll" keep their y. So the last word matches a text holding a stem that
 * - begins with the word's own stem (a whole word, or one cut before its stem ends), or
 * - begins with the word as typed (where stemming changed the word: pay, analy), or
 * - is the stem of the word completed by a common English ending (consulti + ng, generaliz +
 *   ation, securi + ty): where the letters typed run past the stem of the word being typed.
 * Every storage asks the same three, so they answer alike; the endings are a fixed list, so the
 * work per query is bounded by the word's length.
 */
export interface LastWord {
  /** The word as searchWords gives it. */
  word: string;
  /** Prefixes a matching stem may begin with: the word's stem, and the word where stemming changed it. */
  prefixes: readonly string[];
  /** Whole stems that match too: stems of the word's completions not already begun by a prefix. */
  completions: readonly string[];
  /**
   * For an engine with a stemmer of its own (PostgreSQL's is Porter2): a completed word for each
   * stem of a completion that does not begin with the word as typed, whether or not this
   * stemmer's stem of the word begins it (the two stemmers cut the word differently).
   */
  completed: readonly string[];
  /** The longest common prefix of every prefix and completion: every matching stem begins with it. */
  common: string;
}

// Endings that English words take and the stemmer removes, whole or in part. A word typed up to
// some letters into one (consulti is "consult" + "i" of "ing") is completed by the rest of it.
const ENDINGS = (
  "s es e ed ing ings er ers est y ies ied ly ily ion ions ation ations ational ization " +
  "izations isation ize izes ized izing ise ised ising ment ments ement ness ful fully ive " +
  "ively iveness ivity ity ities ic ics ical ically al ally alism alize ance ances ence ences " +
  "ency ancy ant ants ent ents able ably ability abilities ible ibility ibilities bility " +
  "bilities ism ist ists ous ously ate ated ates ating ator ators ative ory ories ure ures " +
  "eness"
).split(" ");

/** The words `word` becomes when completed by an ending, overlapping the letters already typed. */
function completionsOf(word: string): string[] {
  const found: string[] = [];
  for (const ending of ENDINGS) {
    for (let typed = 0; typed < ending.length && typed <= word.length; typed++) {
      if (typed > 0 && !word.endsWith(ending.slice(0, typed))) continue;
      found.push(word + ending.slice(typed));
    }
  }
  return found;
}

function commonPrefix(a: string, b: string): string {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return a.slice(0, n);
}

// Remembered per word, bounded and emptied when full as stemOf's memo is: the bench's distinct
// queries draw their last words from a vocabulary, and each costs some hundred stems. Bounded in
// characters too, since a hostile word of QUERY_MAX_LENGTH letters may complete to some hundred
// long stems: whatever the words, the memo holds at most a few MiB.
const KNOWN = new Map<string, LastWord>();
const KNOWN_KEPT = 10_000;
const CHARACTERS_KEPT = 1_000_000;
let charactersHeld = 0;

/** What the memo of lastWordOf holds: words, and characters of their stems and completions. */
export function lastWordsHeld(): { words: number; characters: number } {
  return { words: KNOWN.size, characters: charactersHeld };
}

/** The LastWord of `word` (from searchWords); memoised. */
export function lastWordOf(word: string): LastWord {
  let known = KNOWN.get(word);
  if (known !== undefined) return known;
  const stem = porterStem(word);
  const prefixes = word.startsWith(stem) ? [stem] : [stem, word];
  const begun = (candidate: string) => prefixes.some((prefix) => candidate.startsWith(prefix));
  const completions = new Set<string>();
  const completed = new Map<string, string>();
  for (const whole of completionsOf(word)) {
    const completion = porterStem(whole);
    if (!begun(completion)) completions.add(completion);
    if (!completion.startsWith(word) && !completed.has(completion)) completed.set(completion, whole);
  }
  const common = [...prefixes.slice(1), ...completions].reduce(commonPrefix, stem);
  known = { word, prefixes, completions: [...completions], completed: [...completed.values()], common };
  const characters = [...prefixes, ...known.completions, ...known.completed].join("").length;
  if (KNOWN.size >= KNOWN_KEPT || charactersHeld + characters > CHARACTERS_KEPT) {
    KNOWN.clear();
    charactersHeld = 0;
  }
  KNOWN.set(word, known);
  charactersHeld += characters;
  return known;
}

/**
 * `last` less what a vocabulary of stems (an index's) lacks: prefixes no stem begins (the word's
 * own stem is kept) and completions it does not hold. It matches the same texts of that index.
 */
export function lastWordWithin(
  last: LastWord,
  vocabulary: { beginsAny(prefix: string): boolean; holds(stem: string): boolean },
): LastWord {
  if (last.prefixes.length === 1 && last.completions.length === 0) return last;
  const [stem, ...typed] = last.prefixes as [string, ...string[]];
  const prefixes = [stem, ...typed.filter((prefix) => vocabulary.beginsAny(prefix))];
  const completions = last.completions.filter((completion) => vocabulary.holds(completion));
  if (prefixes.length === last.prefixes.length && completions.length === last.completions.length) return last;
  const common = [...prefixes.slice(1), ...completions].reduce(commonPrefix, stem);
  return { ...last, prefixes, completions, common };
}

/** Whether `stems` (a text's) hold a stem the last word matches. */
export function holdsLastWord(stems: ReadonlySet<string>, last: LastWord): boolean {
  // At most two prefixes (the stem, the word as typed), named so that the loop over a text's
  // stems, run for every row a storage checks in JS, stays as plain as a single startsWith.
  const [stem, typed] = last.prefixes as [string, string | undefined];
  if (stems.has(stem)) return true;
  for (const completion of last.completions) if (stems.has(completion)) return true;
  for (const candidate of stems) {
    if (candidate.startsWith(stem) || (typed !== undefined && candidate.startsWith(typed))) return true;
  }
  return false;
}

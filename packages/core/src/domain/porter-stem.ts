/**
 * Martin Porter's 1980 stemmer, the one SQLite's FTS5 `porter` tokenizer
 * applies (PostgreSQL's `english` config uses its successor, Porter2, which
 * agrees on ordinary English words). The in-memory storage uses it so that it
 * means what the engines mean; where the two engines differ, the contract
 * suite only holds words on which all three agree.
 */

const VOWELS = new Set(["a", "e", "i", "o", "u"]);

function isConsonant(word: string, i: number): boolean {
  const ch = word[i] as string;
  if (VOWELS.has(ch)) return false;
  if (ch === "y") return i === 0 || !isConsonant(word, i - 1);
  return true;
}

/** m: the number of vowel-consonant sequences in `stem`. */
function measure(stem: string): number {
  let m = 0;
  let i = 0;
  const n = stem.length;
  while (i < n && isConsonant(stem, i)) i++;
  while (i < n) {
    while (i < n && !isConsonant(stem, i)) i++;
    if (i >= n) break;
    while (i < n && isConsonant(stem, i)) i++;
    m++;
  }
  return m;
}

function hasVowel(stem: string): boolean {
  for (let i = 0; i < stem.length; i++) if (!isConsonant(stem, i)) return true;
  return false;
}

function endsDoubleConsonant(word: string): boolean {
  const n = word.length;
  return n >= 2 && word[n - 1] === word[n - 2] && isConsonant(word, n - 1);
}

/** *o: ends consonant-vowel-consonant, the last not w, x or y. */
function endsCvc(word: string): boolean {
  const n = word.length;
  if (n < 3) return false;
  if (!isConsonant(word, n - 1) || isConsonant(word, n - 2) || !isConsonant(word, n - 3)) return false;
  const last = word[n - 1] as string;
  return last !== "w" && last !== "x" && last !== "y";
}

/** Replaces the first matching suffix whose stem passes `when`; the word unchanged if none. */
function replaceSuffix(
  word: string,
  rules: readonly (readonly [string, string])[],
  when: (stem: string) => boolean,
): string {
  for (const [suffix, replacement] of rules) {
    if (!word.endsWith(suffix)) continue;
    const stem = word.slice(0, word.length - suffix.length);
    return when(stem) ? stem + replacement : word;
  }
  return word;
}

function step1ab(word: string): string {
  let w = word;
  if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (w.endsWith("ies")) w = w.slice(0, -2);
  else if (w.endsWith("ss")) {
    // unchanged
  } else if (w.endsWith("s")) w = w.slice(0, -1);

  if (w.endsWith("eed")) {
    return measure(w.slice(0, -3)) > 0 ? w.slice(0, -1) : w;
  }
  for (const suffix of ["ed", "ing"]) {
    if (!w.endsWith(suffix)) continue;
    const stem = w.slice(0, -suffix.length);
    if (!hasVowel(stem)) return w;
    if (stem.endsWith("at") || stem.endsWith("bl") || stem.endsWith("iz")) return `${stem}e`;
    if (endsDoubleConsonant(stem) && !/[lsz]$/.test(stem)) return stem.slice(0, -1);
    if (measure(stem) === 1 && endsCvc(stem)) return `${stem}e`;
    return stem;
  }
  return w;
}

function step1c(word: string): string {
  if (word.endsWith("y") && hasVowel(word.slice(0, -1))) return `${word.slice(0, -1)}i`;
  return word;
}

const STEP2: readonly (readonly [string, string])[] = [
  ["ational", "ate"],
  ["tional", "tion"],
  ["enci", "ence"],
  ["anci", "ance"],
  ["izer", "ize"],
  ["bli", "ble"],
  ["alli", "al"],
  ["entli", "ent"],
  ["eli", "e"],
  ["ousli", "ous"],
  ["ization", "ize"],
  ["ation", "ate"],
  ["ator", "ate"],
  ["alism", "al"],
  ["iveness", "ive"],
  ["fulness", "ful"],
  ["ousness", "ous"],
  ["aliti", "al"],
  ["iviti", "ive"],
  ["biliti", "ble"],
  ["logi", "log"],
];

const STEP3: readonly (readonly [string, string])[] = [
  ["icate", "ic"],
  ["ative", ""],
  ["alize", "al"],
  ["iciti", "ic"],
  ["ical", "ic"],
  ["ful", ""],
  ["ness", ""],
];

const STEP4 = [
  "al",
  "ance",
  "ence",
  "er",
  "ic",
  "able",
  "ible",
  "ant",
  "ement",
  "ment",
  "ent",
  "ion",
  "ou",
  "ism",
  "ate",
  "iti",
  "ous",
  "ive",
  "ize",
] as const;

function step2(word: string): string {
  // Longest suffix first among those sharing an ending: sort once by length.
  return replaceSuffix(word, STEP2_BY_LENGTH, (stem) => measure(stem) > 0);
}
const STEP2_BY_LENGTH = [...STEP2].sort((a, b) => b[0].length - a[0].length);
const STEP3_BY_LENGTH = [...STEP3].sort((a, b) => b[0].length - a[0].length);
const STEP4_BY_LENGTH = [...STEP4].sort((a, b) => b.length - a.length);

function step3(word: string): string {
  return replaceSuffix(word, STEP3_BY_LENGTH, (stem) => measure(stem) > 0);
}

function step4(word: string): string {
  for (const suffix of STEP4_BY_LENGTH) {
    if (!word.endsWith(suffix)) continue;
    const stem = word.slice(0, -suffix.length);
    if (measure(stem) <= 1) return word;
    if (suffix === "ion" && !/[st]$/.test(stem)) return word;
    return stem;
  }
  return word;
}

function step5(word: string): string {
  let w = word;
  if (w.endsWith("e")) {
    const stem = w.slice(0, -1);
    const m = measure(stem);
    if (m > 1 || (m === 1 && !endsCvc(stem))) w = stem;
  }
  if (measure(w) > 1 && endsDoubleConsonant(w) && w.endsWith("l")) w = w.slice(0, -1);
  return w;
}

/**
 * The Porter stem of a lower-case word. Words shorter than 3 letters, or with
 * anything but a-z, are returned as they are (FTS5 does the same).
 */
export function porterStem(word: string): string {
  if (word.length < 3 || !/^[a-z]+$/.test(word)) return word;
  return step5(step4(step3(step2(step1c(step1ab(word))))));
}

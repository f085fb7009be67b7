import { CATEGORY_VALUES, type Category, type ExtractedField } from "@psm/core";
import { CATEGORY_VOCABULARY, type CategoryVocabulary, DEFAULT_CATEGORY } from "./category-vocabulary.js";
import { snippet } from "./normalize.js";

/** Splits text into lower-case words; e-mail addresses and links are dropped first (decoys). */
export function tokenize(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^\s@]{1,64}@\S{1,255}|https?:\/\/\S+|www\.\S+/g, " ")
    .split(/[^\p{L}\p{N}+#&]+/u)
    .map((word) => word.replace(/^[+#&]+|[&]+$/g, ""))
    .filter((word) => word.length > 0);
}

/** Counts of every 1, 2 and 3 word sequence. */
function ngrams(words: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i < words.length; i++) {
    for (let n = 1; n <= 3 && i + n <= words.length; n++) {
      const key = words.slice(i, i + n).join(" ");
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  return counts;
}

/** How often a vocabulary term occurs; a trailing `*` matches any ending of the last word. */
function occurrences(term: string, counts: ReadonlyMap<string, number>): number {
  if (!term.endsWith("*")) return counts.get(term) ?? 0;
  const stem = term.slice(0, -1);
  const size = stem.split(" ").length;
  let total = 0;
  for (const [key, count] of counts) {
    if (key.startsWith(stem) && key.split(" ").length === size) total += count;
  }
  return total;
}

// Repeats count, with diminishing returns, so one word said ten times cannot outvote the rest.
const weigh = (count: number) => (count === 0 ? 0 : 1 + Math.log(count));

function evidence(table: Readonly<Record<string, number>> | undefined, counts: ReadonlyMap<string, number>) {
  let score = 0;
  const hits: string[] = [];
  for (const [term, weight] of Object.entries(table ?? {})) {
    const count = occurrences(term, counts);
    if (count > 0) {
      score += weight * weigh(count);
      hits.push(term.replace("*", ""));
    }
  }
  return { score, hits };
}

/** A category's score for a document: its terms, title terms counted again, less its counter-evidence. */
export function scoreCategory(
  vocabulary: CategoryVocabulary,
  body: ReadonlyMap<string, number>,
  title: ReadonlyMap<string, number>,
) {
  const found = evidence(vocabulary.terms, body);
  const inTitle = evidence(vocabulary.terms, title);
  const against = evidence(vocabulary.against, body);
  return { score: found.score + inTitle.score - against.score, hits: found.hits };
}

/** Below this score nothing speaks for a category and the default is answered. */
const MIN_SCORE = 2;

/**
 * Classifies a document into one of the ten categories by scoring each category's vocabulary
 * (see category-vocabulary.ts); always answers a category, the default when evidence is thin.
 */
export function classifyCategory(title: string, body: string): ExtractedField<Category> {
  const bodyCounts = ngrams(tokenize(body));
  const titleCounts = ngrams(tokenize(title));
  const ranked = CATEGORY_VALUES.map((category) => ({
    category,
    ...scoreCategory(CATEGORY_VOCABULARY[category], bodyCounts, titleCounts),
  })).sort((a, b) => b.score - a.score);
  const [top, second] = ranked;
  if (top === undefined || top.score < MIN_SCORE) {
    return { value: DEFAULT_CATEGORY, confidence: 0.1, source: null };
  }
  const margin = (top.score - Math.max(0, second?.score ?? 0)) / top.score;
  const confidence = Math.min(0.95, (0.3 + 0.65 * margin) * Math.min(1, top.score / 8));
  return {
    value: top.category,
    confidence: Math.round(confidence * 100) / 100,
    source: snippet(`matched: ${top.hits.slice(0, 12).join(", ")}`),
  };
}

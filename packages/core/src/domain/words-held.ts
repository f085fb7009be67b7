import { foldText, stemOf } from "./full-text.js";
import { lastWordOf } from "./last-word.js";

/**
 * `holdsEveryWord` over the stems of several texts together (a title, a description), prepared once
 * for a query's words and asked of many rows: it reads each text word by word and stops as soon as
 * every word is held. A storage that checks rows in JS then builds no set of a long description's
 * stems, and reads no further than the word that completes the match, which for the rows an index
 * hands it (they hold the words) is often early. It cuts words as `searchWords` does (a second
 * cutter of the same rule, kept so that no array of words is built) and answers as `holdsEveryWord`
 * over the union of the texts' `stemsOf`: words-held.test.ts holds it to that on generated texts.
 */
export function everyWordHeld(words: readonly string[]): (texts: readonly string[]) => boolean {
  if (words.length === 0) return () => true;
  const stems = [...new Set(words.slice(0, -1).map(stemOf))];
  const last = lastWordOf(words[words.length - 1] as string);
  const [stem, typed] = last.prefixes as [string, string | undefined];
  const completions = last.completions;
  // Which stems the current call has found: marked with the call's number, so no call allocates.
  const foundIn = new Float64Array(stems.length);
  let call = 0;
  return (texts) => {
    call += 1;
    let missing = stems.length;
    let lastHeld = false;
    for (const text of texts) {
      const folded = foldText(text);
      let start = -1;
      for (let i = 0; i <= folded.length; ) {
        const size = i < folded.length ? wordCharacterAt(folded, i) : 0;
        if (size > 0) {
          if (start < 0) start = i;
          i += size;
          continue;
        }
        if (start >= 0) {
          const found = stemOf(folded.slice(start, i));
          start = -1;
          if (
            !lastHeld &&
            (found.startsWith(stem) ||
              (typed !== undefined && found.startsWith(typed)) ||
              completions.includes(found))
          )
            lastHeld = true;
          const at = stems.indexOf(found);
          if (at >= 0 && foundIn[at] !== call) {
            foundIn[at] = call;
            missing -= 1;
          }
          if (missing === 0 && lastHeld) return true;
        }
        i += 1;
      }
    }
    return false;
  };
}

const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;

/** The length in code units of the letter or digit at `i` of a folded text, 0 if it is neither. */
function wordCharacterAt(text: string, i: number): number {
  const code = text.charCodeAt(i);
  if (code < 0x80) return (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39) ? 1 : 0;
  const point = text.codePointAt(i) as number;
  return LETTER_OR_DIGIT.test(String.fromCodePoint(point)) ? (point > 0xffff ? 2 : 1) : 0;
}

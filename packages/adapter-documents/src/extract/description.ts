import type { ExtractedField } from "@psm/core";
import { snippet, truncate } from "./normalize.js";

/** Longest description a listing takes. */
export const MAX_DESCRIPTION = 20_000;

/**
 * The body text for the description: the document's lines after furniture removal, without
 * the line the title came from, joined back into paragraphs; at most 20000 characters.
 */
export function extractDescription(
  pages: readonly (readonly string[])[],
  titleLine: string | null,
): ExtractedField<string> {
  const all = pages.flat();
  const titleAt = titleLine === null ? -1 : all.indexOf(titleLine);
  const body = titleAt >= 0 && titleAt < 12 && all.length > 1 ? all.filter((_, i) => i !== titleAt) : all;
  // Lines of one paragraph are joined when a line does not end a sentence and the next goes on
  // in lower case: PDF and OCR break lines by width, not by meaning. Each paragraph is a list of
  // lines joined once at the end, and only its last line is looked at: testing a string that
  // grows with every line would make a one-paragraph document quadratic.
  const paragraphs: string[][] = [];
  let last: string | undefined;
  for (const line of body) {
    const current = paragraphs[paragraphs.length - 1];
    if (current !== undefined && last !== undefined && !/[.:!?]$/.test(last) && /^\p{Ll}/u.test(line)) {
      current.push(line);
    } else {
      paragraphs.push([line]);
    }
    last = line;
  }
  const out = paragraphs.map((lines) => lines.join(" "));
  const text = truncate(out.join("\n"), MAX_DESCRIPTION);
  if (text.length === 0) return { value: "", confidence: 0, source: null };
  const confidence = text.length >= 80 ? 0.8 : 0.5;
  return { value: text, confidence, source: snippet(text) };
}

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
  // in lower case: PDF and OCR break lines by width, not by meaning.
  const out: string[] = [];
  for (const line of body) {
    const previous = out[out.length - 1];
    if (previous !== undefined && !/[.:!?]$/.test(previous) && /^\p{Ll}/u.test(line)) {
      out[out.length - 1] = `${previous} ${line}`;
    } else {
      out.push(line);
    }
  }
  const text = truncate(out.join("\n"), MAX_DESCRIPTION);
  if (text.length === 0) return { value: "", confidence: 0, source: null };
  const confidence = text.length >= 80 ? 0.8 : 0.5;
  return { value: text, confidence, source: snippet(text) };
}

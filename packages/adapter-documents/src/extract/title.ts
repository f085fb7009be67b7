import type { ExtractedField } from "@psm/core";
import { isPageNumber } from "./furniture.js";
import { snippet, truncate } from "./normalize.js";

/** Longest title a listing takes. */
export const MAX_TITLE = 200;
const FALLBACK = "Untitled document";

// Metadata titles that say nothing: file names, tool defaults, placeholders.
const USELESS_META =
  /^(untitled|document\d*|title|brochure|new document|microsoft word.*|.*\.(docx?|pdf|pptx?|odt|txt))$/i;

/** The title field, and the body line it took whole (that line is left out of the description). */
export interface TitleResult {
  field: ExtractedField<string>;
  line: string | null;
}

/**
 * A line without its markdown or decoration (`## `, `** `, ` ==`) and, for `clean`, a trailing
 * colon. Each pattern is anchored at one end and the tail is cut to a few characters first: an
 * unanchored `\s*[*=_-]{1,3}$` would rescan a run of spaces from every one of its positions.
 */
function strip(line: string, colon: boolean): string {
  let text = line.replace(/^(?:#{1,6}\s+|[*=_-]{1,3}\s*)/, "").trimEnd();
  const tail = text.slice(-8);
  const decoration = /[*=_-]{1,3}$/.exec(tail)?.[0] ?? "";
  text = text.slice(0, text.length - decoration.length).trimEnd();
  if (colon && text.endsWith(":")) text = text.slice(0, -1);
  return text.trim();
}

/** True when a line looks like a heading rather than body text, contact details or a price. */
function headingScore(line: string, index: number): number {
  const text = strip(line, false);
  const words = text.split(/\s+/).length;
  if (text.length < 3 || text.length > 150 || words > 16 || !/\p{L}{2}/u.test(text)) return 0;
  if (/@|https?:|www\.|\d{3}[\s.-]\d{3,}/.test(text) || isPageNumber(text)) return 0;
  if (/^(price|pricing|fee|rate|cost|contact|email|e-mail|phone|tel)\b/i.test(text)) return 0;
  let score = 1;
  if (/^#{1,6}\s/.test(line)) score += 3;
  if (!/[.,;]$/.test(text)) score += 1;
  if (text === text.toUpperCase()) score += 1;
  const capitalised = text.split(/\s+/).filter((w) => /^[\p{Lu}\d]/u.test(w)).length;
  if (capitalised / words >= 0.6) score += 1;
  if (words <= 12) score += 1;
  return score - index * 0.4;
}

/** Strips markdown and decoration from a heading line. */
function clean(line: string): string {
  return truncate(strip(line, true), MAX_TITLE);
}

/** Metadata worth a title: not a file name, a tool's default or a placeholder. */
function meaningfulMeta(metaTitle: string | null | undefined): string | null {
  const meta = metaTitle?.replace(/\s+/g, " ").trim() ?? "";
  return meta.length >= 3 && /\p{L}{2}/u.test(meta) && !USELESS_META.test(meta) ? meta : null;
}

/**
 * The document's title: the most heading-like of the first lines, else its metadata title when
 * that is meaningful, else the start of the first line; at most 200 characters. The heading a
 * reader sees comes first: a PDF's hidden metadata title is often a template's or an older
 * version's ("Q3 proposal FINAL"), and the author never sees it to correct it.
 */
export function extractTitle(bodyLines: readonly string[], metaTitle?: string | null): TitleResult {
  let chosen: { line: string; score: number } | null = null;
  for (const [index, line] of bodyLines.slice(0, 12).entries()) {
    const score = headingScore(line, index);
    if (score > 0 && (chosen === null || score > chosen.score)) chosen = { line, score };
  }
  if (chosen !== null && chosen.score >= 3) {
    const confidence = Math.min(0.85, 0.35 + chosen.score / 10);
    return {
      field: { value: clean(chosen.line), confidence, source: snippet(chosen.line) },
      line: chosen.line,
    };
  }
  const meta = meaningfulMeta(metaTitle);
  if (meta !== null) {
    // Below a visible heading's confidence: nothing on the page says it.
    const field = { value: truncate(meta, MAX_TITLE), confidence: 0.6, source: snippet(`metadata: ${meta}`) };
    return { field, line: null };
  }
  const first = bodyLines[0];
  if (first === undefined) return { field: { value: FALLBACK, confidence: 0, source: null }, line: null };
  // Only the first sentence becomes the title; the line stays in the description.
  const sentence = first.split(/(?<=[.!?])\s/)[0] ?? first;
  return {
    field: { value: clean(sentence) || FALLBACK, confidence: 0.3, source: snippet(first) },
    line: null,
  };
}

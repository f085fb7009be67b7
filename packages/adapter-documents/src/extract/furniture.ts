import { lines } from "./normalize.js";

// "3", "- 3 -", "Page 3", "page 3 of 12", "3 / 12", "p. 3": lines that only number a page.
const PAGE_NUMBER =
  /^[-–—\s]*(?:(?:page|p\.|pg\.?|seite)\s*)?\d{1,4}(?:\s*(?:of|\/|von)\s*\d{1,4})?[-–—\s]*$/i;

/** True when a line is only a page number. */
export function isPageNumber(line: string): boolean {
  return PAGE_NUMBER.test(line);
}

// Digits are masked so "ACME brochure, page 3" and "..., page 4" count as the same furniture.
const shape = (line: string) => line.toLowerCase().replace(/\d+/g, "#");

/** How many lines at the top and bottom of a page can be a running header or footer. */
const EDGE_LINES = 3;

/**
 * Removes page furniture from the pages of a document: lines that are only page numbers, and
 * running headers and footers (a line near the top or bottom of a page that repeats on at
 * least half of the pages, and on two at least). Returns the remaining lines of each page.
 */
export function removeFurniture(pages: readonly string[]): string[][] {
  const split = pages.map(lines);
  const seen = new Map<string, number>();
  for (const page of split) {
    const edges = new Set([...page.slice(0, EDGE_LINES), ...page.slice(-EDGE_LINES)].map(shape));
    for (const key of edges) seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  const threshold = Math.max(2, Math.ceil(split.length / 2));
  return split.map((page) =>
    page.filter((line, index) => {
      if (isPageNumber(line)) return false;
      const atEdge = index < EDGE_LINES || index >= page.length - EDGE_LINES;
      return !(atEdge && (seen.get(shape(line)) ?? 0) >= threshold);
    }),
  );
}

/** Characters of library or user text looked at, at most: everything past it is cut before any work. */
export const MAX_INPUT_CHARS = 200_000;

// C0/C1 controls other than tab, newline and form feed carry no meaning for extraction.
// biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
const CONTROLS = /[\u0000-\u0008\u000b\u000d-\u001f\u007f-\u009f\u200b-\u200d\u2060\ufeff]/g;

/**
 * Cleans text from any source (file, PDF, OCR) before extraction: bounds its length, unifies
 * line endings, drops control and zero-width characters and collapses runs of spaces.
 */
export function normalizeText(text: string, maxChars = MAX_INPUT_CHARS): string {
  return (
    text
      .slice(0, maxChars)
      .normalize("NFC")
      .replace(/\r\n?|[\f\u0085\u2028\u2029]/g, "\n")
      .replace(CONTROLS, "")
      // Every other space character becomes one space: no rule later meets a run of them.
      .replace(/[\t\u00a0\u1680\u180e\u2000-\u200a\u202f\u205f\u3000 ]+/g, " ")
      .replace(/ *\n */g, "\n")
      .trim()
  );
}

/** Cuts `text` to at most `max` characters, at a word boundary when one is near. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.search(/\s\S*$/);
  return (space > max * 0.8 ? cut.slice(0, space) : cut).trimEnd();
}

/** A one-line excerpt of at most 200 characters, for `ExtractedField.source`. */
export function snippet(text: string, max = 200): string {
  return truncate(text.replace(/\s+/g, " ").trim(), max);
}

/** Non-empty lines of a page, trimmed. */
export function lines(text: string): string[] {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}

/** The first `max` items of an iterable (lazy regex matches stop being searched there). */
export function take<T>(items: Iterable<T>, max: number): T[] {
  const out: T[] = [];
  if (max <= 0) return out;
  for (const item of items) {
    out.push(item);
    if (out.length >= max) break;
  }
  return out;
}

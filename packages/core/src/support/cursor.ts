import { isUuid } from "../domain/uuid.js";
import { invalidField } from "../errors.js";
import { fromBase64Url, toBase64Url } from "./crypto.js";

const utf8 = new TextEncoder();

/** An opaque cursor for the page after the row with this id. */
export function encodeCursor(lastId: string): string {
  return toBase64Url(utf8.encode(lastId));
}

/** The id a cursor stands for; `invalid_input` for anything not made by encodeCursor. */
export function decodeCursor(cursor: string | undefined): string | undefined {
  if (cursor === undefined || cursor === "") return undefined;
  const bytes = fromBase64Url(cursor);
  const id = bytes ? new TextDecoder().decode(bytes) : "";
  // Only the lower-case ids encodeCursor writes: ordering compares them as text.
  if (!isUuid(id) || id !== id.toLowerCase()) throw invalidField("cursor", "is not a valid cursor");
  return id;
}

/**
 * Turns `limit + 1` fetched rows into a page: the extra row only tells that
 * another page exists.
 */
export function toPage<T extends { id: string }>(
  rows: T[],
  limit: number,
): { items: T[]; nextCursor: string | null } {
  if (rows.length <= limit) return { items: rows, nextCursor: null };
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: last ? encodeCursor(last.id) : null };
}

/**
 * toPage for a search that may have stopped short (ListingSearchResult): a
 * short page whose next page starts below `resumeBefore`.
 */
export function toSearchPage<T extends { id: string }>(
  rows: T[] & { resumeBefore?: string },
  limit: number,
  before: string | undefined,
): { items: T[]; nextCursor: string | null } {
  const resume = rows.resumeBefore;
  if (resume === undefined || rows.length > limit) return toPage(rows, limit);
  // A resume point at or above the cursor would send a caller round the same page forever.
  if (before !== undefined && resume >= before) throw new Error("a search resumed at or above its cursor");
  return { items: [...rows], nextCursor: encodeCursor(resume) };
}

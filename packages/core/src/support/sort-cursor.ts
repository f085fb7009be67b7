import type { ListingSort, SortKey } from "../domain/listing-sort.js";
import { isUuid } from "../domain/uuid.js";
import { invalidField } from "../errors.js";
import { fromBase64Url, toBase64Url } from "./crypto.js";
import { decodeCursor, encodeCursor } from "./cursor.js";

// A newest-first cursor is the 1.0.2 one (the id alone), so both kinds of
// search page alike; the other sorts carry their key, tagged with the sort so
// that a cursor from one sort is refused by another.
const TAGS: Record<Exclude<ListingSort, "newest">, string> = {
  relevance: "r",
  price_asc: "pa",
  price_desc: "pd",
};

/** An opaque cursor for the page after `key` in `sort`. */
export function encodeSortCursor(sort: ListingSort, key: SortKey): string {
  if (sort === "newest") return encodeCursor(key.id);
  const body = sort === "relevance" ? [TAGS[sort], key.rank, key.id] : [TAGS[sort], key.price, key.id];
  return toBase64Url(new TextEncoder().encode(JSON.stringify(body)));
}

/** The key a cursor of `sort` stands for; `invalid_input` for anything encodeSortCursor did not make for that sort. */
export function decodeSortCursor(sort: ListingSort, cursor: string | undefined): SortKey | undefined {
  if (cursor === undefined || cursor === "") return undefined;
  if (sort === "newest") {
    const id = decodeCursor(cursor);
    return id === undefined ? undefined : { rank: 0, price: null, id };
  }
  const invalid = () => invalidField("cursor", "is not a valid cursor for this sort");
  const bytes = fromBase64Url(cursor);
  let body: unknown;
  try {
    body = bytes ? JSON.parse(new TextDecoder().decode(bytes)) : undefined;
  } catch {
    throw invalid();
  }
  if (!Array.isArray(body) || body.length !== 3 || body[0] !== TAGS[sort]) throw invalid();
  const [, value, id] = body as [string, unknown, unknown];
  if (typeof id !== "string" || !isUuid(id) || id !== id.toLowerCase()) throw invalid();
  if (sort === "relevance") {
    if (value !== 0 && value !== 1) throw invalid();
    return { rank: value, price: null, id };
  }
  if (value !== null && (typeof value !== "number" || !Number.isFinite(value) || value < 0)) throw invalid();
  return { rank: 0, price: value, id };
}

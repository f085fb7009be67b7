import * as v from "valibot";

// ES2024's String#isWellFormed (Node 20+); this package compiles against the ES2023 lib.
interface WellFormed {
  isWellFormed(): boolean;
}

/**
 * The one rule every string of every input obeys (decisions.md, "Strings"):
 * no NUL character (PostgreSQL text and jsonb refuse it) and well-formed
 * UTF-16, no lone surrogate (stored as U+FFFD by one backend and refused by
 * another, so what was acknowledged would not be what is stored). Body fields
 * check it through `text`, structured_data on every key and string inside it,
 * and adapter-http on every query parameter and path parameter.
 */
export function isStorableText(value: string): boolean {
  return !value.includes("\0") && (value as string & WellFormed).isWellFormed();
}

/** What a string that breaks `isStorableText` is told, after its field name. */
export const STORABLE_TEXT_MESSAGE = "must not contain a NUL character or a lone surrogate";

/** A string that every backend stores exactly: every string field of every schema starts from it. */
export const text = v.pipe(v.string(), v.check(isStorableText, STORABLE_TEXT_MESSAGE));

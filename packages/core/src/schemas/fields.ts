import * as v from "valibot";
import { CATEGORY_VALUES } from "../domain/category.js";
import { PAGE } from "../domain/limits.js";
import { PRICE_UNITS } from "../domain/listing.js";
import { isUuid } from "../domain/uuid.js";
import { structuredDataProblem } from "./json-value.js";
import { text } from "./storable-text.js";

/** Reusable field schemas with the bounds of decisions.md. */

export { isStorableText, STORABLE_TEXT_MESSAGE, text } from "./storable-text.js";

/** A UUID in any case; use cases lower-case it. */
export const uuid = v.pipe(text, v.check(isUuid, "must be a UUID"));

/** The longest address accepted (RFC 5321's path limit). */
export const EMAIL_MAX_LENGTH = 254;
/** Password bounds: the one definition sign-up, reset, the admin bootstrap and login read. */
export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 1024;

export const email = v.pipe(
  text,
  v.trim(),
  v.maxLength(EMAIL_MAX_LENGTH, `must be at most ${EMAIL_MAX_LENGTH} characters`),
  v.email("must be a valid email address"),
);

export const password = v.pipe(
  text,
  v.minLength(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`),
  v.maxLength(PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters`),
);

/** The longest token of a mailed link accepted (ours are far shorter). */
export const TOKEN_MAX_LENGTH = 512;

/** A single-use token from a mailed link (reset, verification). */
export const token = v.pipe(
  text,
  v.minLength(1, "is required"),
  v.maxLength(TOKEN_MAX_LENGTH, "is not a valid token"),
);

export const displayName = v.pipe(
  text,
  v.trim(),
  v.minLength(1, "must not be empty"),
  v.maxLength(100, "must be at most 100 characters"),
);

export const category = v.picklist(CATEGORY_VALUES, `must be one of ${CATEGORY_VALUES.join(", ")}`);

export const title = v.pipe(
  text,
  v.trim(),
  v.minLength(1, "must not be empty"),
  v.maxLength(200, "must be at most 200 characters"),
);

export const description = v.pipe(
  text,
  v.minLength(1, "must not be empty"),
  v.maxLength(20_000, "must be at most 20000 characters"),
);

const NUMERIC = /^\s*\d+(?:\.\d+)?\s*$/;

/**
 * A finite number >= 0; a numeric string is accepted too (interface 1.0.2),
 * unless it is too large for a number (it would be stored as Infinity and
 * shown as null).
 */
export const price = v.union(
  [
    v.pipe(v.number(), v.finite("must be a finite number"), v.minValue(0, "must be >= 0")),
    v.pipe(
      v.string(),
      v.regex(NUMERIC, "must be a number >= 0"),
      v.transform(Number),
      v.finite("must be a finite number"),
    ),
  ],
  "must be a number >= 0",
);

/** What a price buys: fixed, hour, day or month. */
export const priceUnit = v.picklist(PRICE_UNITS, `must be one of ${PRICE_UNITS.join(", ")}`);

export const condition = v.pipe(text, v.maxLength(50, "must be at most 50 characters"));

const httpUrl = v.pipe(
  text,
  v.maxLength(2048, "URLs must be at most 2048 characters"),
  v.url("must be URLs"),
  v.regex(/^https?:\/\//i, "must be http(s) URLs"),
);

export const images = v.pipe(
  v.array(httpUrl, "must be an array of URLs"),
  v.maxLength(20, "at most 20 images"),
);

/** structured_data's bounds: its UTF-8 JSON size and its nesting (the object itself is level 1). */
export const STRUCTURED_DATA_LIMITS = { maxBytes: 16 * 1024, maxDepth: 32 } as const;

/**
 * A JSON object of at most 16 KiB once serialised and 32 levels deep, whose
 * strings (keys too) are storable text and whose numbers are finite: it is
 * stored, and read back, exactly as given. Checked without recursion (see
 * json-value.ts), so no nesting can overflow the stack; every key is kept
 * (`constructor` and `__proto__` are data here, as JSON.parse made them).
 */
export const structuredData = v.pipe(
  v.custom<Record<string, unknown>>(
    (value) => typeof value === "object" && value !== null && !Array.isArray(value),
    "must be a JSON object",
  ),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const problem = structuredDataProblem(dataset.value, STRUCTURED_DATA_LIMITS);
    if (problem !== null) addIssue({ message: problem });
  }),
  // The JSON Schema the custom schema cannot describe itself (OpenAPI).
  v.metadata({
    type: "object",
    additionalProperties: {},
    description: "Any JSON object: at most 16 KiB as UTF-8 JSON, 32 levels deep.",
  }),
);

export const contactEmail = email;

// The instants both backends store and read back exactly, as four-digit years:
// PostgreSQL prints years before 1 with "BC", and a Date reads a printed year
// below 100 as 19xx or 20xx, so an expiry in year 0001 would come back as 2001.
const EARLIEST = Date.parse("1000-01-01T00:00:00.000Z");
const LATEST = Date.parse("9999-12-31T23:59:59.999Z");

/** Whether the calendar date the string begins with exists (`2026-02-30` does not; Date would roll it over). */
function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** An ISO 8601 date-time that names one real instant, read as a Date (milliseconds). */
export const isoDateTime = v.pipe(
  text,
  v.isoTimestamp("must be an ISO 8601 date-time"),
  v.check(isCalendarDate, "must be an ISO 8601 date-time"),
  v.transform((value) => new Date(value)),
  v.check((date) => !Number.isNaN(date.getTime()), "must be an ISO 8601 date-time"),
  v.check(
    (date) => date.getTime() >= EARLIEST && date.getTime() <= LATEST,
    "must be between the years 1000 and 9999",
  ),
);

export const messageContent = v.pipe(
  text,
  v.minLength(1, "must not be empty"),
  v.maxLength(5000, "must be at most 5000 characters"),
);

/**
 * A page size: an integer (or integer string) >= 1; larger than the maximum is
 * clamped; a non-integer or a value below 1 is refused.
 */
export function limit(defaultLimit: number) {
  return v.optional(
    v.pipe(
      v.union(
        [
          v.pipe(v.number(), v.integer("must be an integer")),
          v.pipe(v.string(), v.regex(/^\d+$/, "must be an integer"), v.transform(Number)),
        ],
        "must be an integer",
      ),
      v.minValue(1, "must be at least 1"),
      v.transform((n: number) => Math.min(n, PAGE.maxLimit)),
    ),
    defaultLimit,
  );
}

export const cursor = v.pipe(text, v.maxLength(200, "is not a valid cursor"));

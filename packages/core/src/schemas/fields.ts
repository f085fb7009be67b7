import * as v from "valibot";
import { CATEGORY_VALUES } from "../domain/category.js";
import { PAGE } from "../domain/limits.js";

/** Reusable field schemas with the bounds of decisions.md. */

export const uuid = v.pipe(v.string(), v.uuid("must be a UUID"));

export const email = v.pipe(
  v.string(),
  v.trim(),
  v.maxLength(254, "must be at most 254 characters"),
  v.email("must be a valid email address"),
);

export const password = v.pipe(
  v.string(),
  v.minLength(6, "must be at least 6 characters"),
  v.maxLength(1024, "must be at most 1024 characters"),
);

export const displayName = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, "must not be empty"),
  v.maxLength(100, "must be at most 100 characters"),
);

export const category = v.picklist(CATEGORY_VALUES, "must be one of the ten categories");

export const title = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, "must not be empty"),
  v.maxLength(200, "must be at most 200 characters"),
);

export const description = v.pipe(
  v.string(),
  v.minLength(1, "must not be empty"),
  v.maxLength(20_000, "must be at most 20000 characters"),
);

const NUMERIC = /^\s*\d+(?:\.\d+)?\s*$/;

/** A finite number >= 0; a numeric string is accepted too (interface 1.0.2). */
export const price = v.union(
  [
    v.pipe(v.number(), v.finite("must be a finite number"), v.minValue(0, "must be >= 0")),
    v.pipe(v.string(), v.regex(NUMERIC, "must be a number >= 0"), v.transform(Number)),
  ],
  "must be a number >= 0",
);

export const condition = v.pipe(v.string(), v.maxLength(50, "must be at most 50 characters"));

const httpUrl = v.pipe(
  v.string(),
  v.maxLength(2048, "URLs must be at most 2048 characters"),
  v.url("must be URLs"),
  v.regex(/^https?:\/\//i, "must be http(s) URLs"),
);

export const images = v.pipe(
  v.array(httpUrl, "must be an array of URLs"),
  v.maxLength(20, "at most 20 images"),
);

/** A JSON object of at most 16 KiB once serialised. */
export const structuredData = v.pipe(
  v.custom<Record<string, unknown>>(
    (value) => typeof value === "object" && value !== null && !Array.isArray(value),
    "must be a JSON object",
  ),
  v.record(v.string(), v.unknown(), "must be a JSON object"),
  v.check(
    (value) => new TextEncoder().encode(JSON.stringify(value)).length <= 16 * 1024,
    "must be at most 16 KiB",
  ),
);

export const contactEmail = email;

export const isoDateTime = v.pipe(
  v.string(),
  v.isoTimestamp("must be an ISO 8601 date-time"),
  v.transform((value) => new Date(value)),
);

export const messageContent = v.pipe(
  v.string(),
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

export const cursor = v.pipe(v.string(), v.maxLength(200, "is not a valid cursor"));

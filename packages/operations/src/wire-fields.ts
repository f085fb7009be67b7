import { CATEGORY_VALUES, ERROR_CODES } from "@psm/core";
import * as v from "valibot";

/** The building blocks of the wire schemas (wire-schemas.ts): descriptions, references, common fields. */

export const named = <S extends v.GenericSchema>(ref: string, schema: S) =>
  v.pipe(schema, v.metadata({ ref }));

/** `schema` with a description of its own. */
export const about = <S extends v.GenericSchema>(description: string, schema: S) =>
  v.pipe(schema, v.description(description));

/**
 * A named schema used as a property, with the property's own description.
 * The converter keeps nothing beside a bare `$ref`, so the reference is
 * wrapped in a one-member `allOf` (the usual OpenAPI idiom), which keeps it.
 */
export const referenced = <S extends v.GenericSchema>(description: string, schema: S) =>
  about(description, v.intersect([schema]));

export const uuid = (description: string) => about(description, v.pipe(v.string(), v.uuid()));
export const timestamp = v.pipe(v.string(), v.isoTimestamp());
export const instant = (what: string) =>
  about(`${what}: an ISO 8601 UTC date-time with milliseconds (2026-03-01T09:30:00.000Z).`, timestamp);
export const nullableInstant = (what: string, whenNull: string) =>
  about(
    `${what}: an ISO 8601 UTC date-time with milliseconds (2026-03-01T09:30:00.000Z); null ${whenNull}.`,
    v.nullable(timestamp),
  );
export const count = (description: string) =>
  about(description, v.pipe(v.number(), v.integer(), v.minValue(0)));
export const categories = `One of the ten category values: ${CATEGORY_VALUES.join(", ")}.`;

/** `count` of every page. */
export const COUNT = count(
  "How many items this page holds (0 to the page's limit); not the total across pages.",
);
/** `next_cursor` of every page. */
export const NEXT_CURSOR = about(
  "Pass as `cursor` to get the next page; null on the last page.",
  v.nullable(v.string()),
);
/** `next_cursor` of a listing search, whose pages may end short (core's ListingSearchResult). */
export const SEARCH_NEXT_CURSOR = about(
  "Pass as `cursor` to get the next page; null on the last page, and only there: a search that stopped early to bound its work answers a short, even empty, page with a next_cursor, so page on until it is null.",
  v.nullable(v.string()),
);
/** `success` of the answers that only confirm. */
export const SUCCESS = about("Always true: the operation was carried out.", v.literal(true));

/** {error, code}: every failure. */
export const ErrorSchema = named(
  "Error",
  v.object({
    error: about("A message for people, in English; may name the field at fault.", v.string()),
    code: about(
      "A stable, machine-readable code for the failure; branch on this, not on `error`.",
      v.picklist(ERROR_CODES),
    ),
  }),
);

import { isMarketplaceError, MarketplaceError } from "@psm/core";
import * as v from "valibot";

/** A core command schema: a valibot object whose keys are the command's camelCase fields. */
export type CommandSchema = v.ObjectSchema<v.ObjectEntries, v.ErrorMessage<v.ObjectIssue> | undefined>;

/** `structuredData` → `structured_data`: the wire's name of a command field. */
export function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/**
 * Where each command field comes from on the wire: a JSON body or query key
 * (the field's snake_case name) or a path parameter. One table serves both
 * ways: it builds the command from a request, and it puts a core error back in
 * the wire's words ("contactEmail: …" becomes "contact_email: …").
 */
export interface WireMapping {
  /** The command schema whose fields the body or query carries. */
  schema?: CommandSchema | undefined;
  /** Whether those fields come from the JSON body or the query string. */
  from?: "body" | "query" | undefined;
  /** Command fields taken from path parameters: `{ postId: "id" }`. */
  path?: Readonly<Record<string, string>> | undefined;
}

/** The wire key of every command field the mapping names. */
export function wireNames(mapping: WireMapping): Map<string, string> {
  const names = new Map<string, string>();
  for (const field of Object.keys(mapping.schema?.entries ?? {})) names.set(field, snakeCase(field));
  for (const [field, param] of Object.entries(mapping.path ?? {})) names.set(field, param);
  return names;
}

/**
 * The command a request carries: each known wire key copied under its command
 * name, path parameters last (a body cannot override the id in the path).
 * Unknown keys are dropped here, as core's schemas would drop them. Values are
 * not checked: the use case validates the command, once, for every caller.
 */
export function commandOf(
  mapping: WireMapping,
  source: { fields: Record<string, unknown>; params: Record<string, string> },
): Record<string, unknown> {
  const command: Record<string, unknown> = {};
  for (const field of Object.keys(mapping.schema?.entries ?? {})) {
    const key = snakeCase(field);
    if (Object.hasOwn(source.fields, key)) command[field] = source.fields[key];
  }
  for (const [field, param] of Object.entries(mapping.path ?? {})) command[field] = source.params[param];
  return command;
}

/** A core `invalid_input` about a command field, renamed to the field's wire name; anything else as is. */
export function inWireWords(error: unknown, names: ReadonlyMap<string, string>): unknown {
  if (!isMarketplaceError(error, "invalid_input") || error.field === undefined) return error;
  const [head = "", ...rest] = error.field.split(".");
  const wire = names.get(head);
  if (wire === undefined || wire === head) return error;
  const field = [wire, ...rest].join(".");
  const message = field + error.message.slice(error.field.length);
  return new MarketplaceError("invalid_input", message, { field, cause: error.cause });
}

/**
 * The wire shape of a command schema for the OpenAPI document: the same field
 * schemas (bounds, defaults, messages) under their snake_case names, each with
 * its description; named as a component when `ref` is given.
 */
export function wireSchema(
  schema: CommandSchema,
  ref: string | undefined,
  descriptions: Readonly<Record<string, string>> = {},
): v.GenericSchema {
  const entries: v.ObjectEntries = {};
  for (const [field, entry] of Object.entries(schema.entries)) {
    const key = snakeCase(field);
    const description = descriptions[key];
    entries[key] = description === undefined ? entry : v.pipe(entry, v.description(description));
  }
  const object = v.object(entries);
  return ref === undefined ? object : v.pipe(object, v.metadata({ ref }));
}

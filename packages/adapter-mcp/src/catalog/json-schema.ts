import { resolver } from "hono-openapi";
import type * as v from "valibot";

/** A JSON Schema node, as plain data. */
export type JsonSchema = { [keyword: string]: unknown };

/** A JSON Schema whose root describes an object, as MCP requires of tool schemas. */
export type ObjectJsonSchema = JsonSchema & {
  type: "object";
  properties: Record<string, JsonSchema>;
  required?: string[];
};

/**
 * The JSON Schema of a valibot schema, converted exactly as /openapi.json's
 * are (hono-openapi's resolver over @valibot/to-json-schema, with actions that
 * have no JSON Schema form, such as transforms, left out as hono-openapi leaves
 * them out), so a tool's schema and the route's cannot drift apart. Named
 * schemas keep a `ref` marker here; `publishable` removes it.
 */
export async function jsonSchemaOf(schema: v.GenericSchema): Promise<JsonSchema> {
  return (await resolver(schema, { errorMode: "ignore" }).toJSONSchema()) as JsonSchema;
}

/** Whether a value is a JSON object (not an array, not null). */
export function isObject(value: unknown): value is JsonSchema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `schema` as an object schema, or an error naming `what` (tool schemas must describe objects). */
export function asObjectSchema(schema: JsonSchema, what: string): ObjectJsonSchema {
  if (schema.type !== "object" || !isObject(schema.properties)) {
    throw new Error(`${what}: the schema does not describe a JSON object`);
  }
  return schema as ObjectJsonSchema;
}

// Keywords whose value is one subschema, a list of them, or a map of them.
const ONE = ["items", "additionalProperties", "not", "if", "then", "else", "propertyNames", "contains"];
const MANY = ["anyOf", "allOf", "oneOf", "prefixItems"];
const MAP = ["properties", "patternProperties", "definitions", "$defs"];

/** Applies `visit` to `node` and to every subschema below it, outermost first. */
export function eachSubschema(node: JsonSchema, visit: (node: JsonSchema) => void): void {
  visit(node);
  for (const key of ONE) {
    const sub = node[key];
    if (isObject(sub)) eachSubschema(sub, visit);
  }
  for (const key of MANY) {
    const list = node[key];
    if (Array.isArray(list)) for (const sub of list) if (isObject(sub)) eachSubschema(sub, visit);
  }
  for (const key of MAP) {
    const map = node[key];
    if (isObject(map)) for (const sub of Object.values(map)) if (isObject(sub)) eachSubschema(sub, visit);
  }
}

/**
 * A copy of `schema` for publication: without the `ref` names the converter
 * leaves on named schemas (they mean something only to the OpenAPI
 * components), and without `$schema`: the converter says draft-07, MCP reads
 * a schema without one as 2020-12, and what these schemas use means the same
 * in both, whereas a validator of one dialect may refuse the other's URI.
 */
export function publishable<S extends JsonSchema>(schema: S): S {
  const copy = structuredClone(schema);
  eachSubschema(copy, (node) => {
    if (typeof node.ref === "string") delete node.ref;
    delete node.$schema;
  });
  return copy;
}

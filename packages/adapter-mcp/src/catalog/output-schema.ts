import type * as v from "valibot";
import { eachSubschema, isObject, type JsonSchema, jsonSchemaOf, publishable } from "./json-schema.js";
import { markUntrusted, renameUntrusted, type UntrustedPlace } from "./untrusted.js";

/**
 * The named shapes (Listing, Message, …) some tool's output schema already describes in full, by
 * the tool that does: the catalog is read whole on every connection, so a shape's field
 * descriptions are given once, and later tools name the shape and that tool instead.
 */
export type DescribedShapes = Map<string, string>;

/** A tool's answer: its schema, how to present an answer to match it, and a one-line summary. */
export interface ToolOutput {
  schema: JsonSchema & { type: "object" };
  present: (body: Record<string, unknown>) => Record<string, unknown>;
  /** What the answer holds, for the tool's description: `{listing: Listing}`. */
  summary: string;
}

// A failed call's structured content is the API's `{error, code}` (the server's instructions say
// what to do with it): clients validate it against the output schema too, so it is named, tersely.
const FAILURE: JsonSchema = {
  type: "object",
  properties: { error: { type: "string" }, code: { type: "string" } },
  required: ["error", "code"],
};

/** The output schema of tool `tool` answering `ok`, each named shape described in full only the first time. */
export async function outputOf(
  ok: v.GenericSchema,
  tool: string,
  described: DescribedShapes,
): Promise<ToolOutput> {
  const raw = await jsonSchemaOf(ok);
  const summary = summaryOf(raw);
  const marked = markUntrusted(raw);
  const places: UntrustedPlace[] = marked.places;
  describeOnce(marked.schema, tool, described);
  const schema = publishable({ type: "object" as const, anyOf: [marked.schema, FAILURE] });
  return { schema, present: (body) => renameUntrusted(body, places) as Record<string, unknown>, summary };
}

/** A named shape's name at `node`: its own `ref`, through an allOf wrapper or an array's items. */
function shapeOf(node: unknown): string | undefined {
  if (!isObject(node)) return undefined;
  if (typeof node.ref === "string") return node.ref;
  const wrapped = Array.isArray(node.allOf) ? node.allOf[0] : undefined;
  if (isObject(wrapped) && typeof wrapped.ref === "string") return wrapped.ref;
  const item = shapeOf(node.items);
  if (item !== undefined) return `${item}[]`;
  const nullable = Array.isArray(node.anyOf)
    ? node.anyOf.map(shapeOf).find((name) => name !== undefined)
    : undefined;
  return nullable === undefined ? undefined : `${nullable} or null`;
}

/** `{listing: Listing, count, next_cursor}`: the answer's top-level keys, with the shape of each named one. */
function summaryOf(schema: JsonSchema): string {
  const root = shapeOf(schema);
  if (root !== undefined) return root;
  const properties = isObject(schema.properties) ? schema.properties : {};
  const keys = Object.entries(properties).map(([key, sub]) => {
    const shape = shapeOf(sub);
    return shape === undefined ? key : `${key}: ${shape}`;
  });
  return `{${keys.join(", ")}}`;
}

/** Strips the field descriptions of every named shape an earlier tool described, pointing there instead. */
function describeOnce(schema: JsonSchema, tool: string, described: DescribedShapes): void {
  eachSubschema(schema, (node) => {
    if (typeof node.ref !== "string") return;
    const first = described.get(node.ref);
    if (first === undefined) {
      described.set(node.ref, tool);
      return;
    }
    if (first === tool) return;
    eachSubschema(node, (inner) => {
      if (inner !== node) delete inner.description;
    });
    node.description = `A ${node.ref}: its fields are described in ${first}'s output schema.`;
  });
}

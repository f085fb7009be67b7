import {
  type Actor,
  fields,
  type Marketplace,
  MarketplaceError,
  type SecurityMode,
  type Settings,
} from "@psm/core";
import {
  apiOperations,
  authIn,
  buildCapabilities,
  type CapabilitiesDocument,
  commandOf,
  inWireWords,
  type Operation,
  type OperationsConfig,
  operationsConfig,
  ParsedDocumentSchema,
  requireOperationScope,
  takesIdempotencyKey,
  wireNames,
  wireSchema,
} from "@psm/operations";
import type { CatalogTool } from "./catalog/catalog-tool.js";
import { categoriesTool } from "./catalog/categories-tool.js";
import { DocumentArguments, fileFromArguments } from "./catalog/document-tool.js";
import {
  asObjectSchema,
  isObject,
  type JsonSchema,
  jsonSchemaOf,
  type ObjectJsonSchema,
  publishable,
} from "./catalog/json-schema.js";
import { runKeyed, type ToolResult } from "./catalog/keyed-call.js";
import { type DescribedShapes, outputOf } from "./catalog/output-schema.js";
import { toolDescription } from "./catalog/tool-description.js";
import type { McpTool } from "./tool.js";

export type { JsonSchema, ObjectJsonSchema, ToolResult };

/** The rate classes tools fall in (no tool logs in, signs up or resets a password). */
export type ToolRateClass = McpTool["rate"];
export type { CatalogTool };

/** The tools agents see and the capabilities document, both from the one registry. */
export interface ApiCatalog {
  tools: CatalogTool[];
  capabilities: CapabilitiesDocument;
}

/** Where the one tool of agents' own (not an operation) stands among the operations' `tool` places. */
const CATEGORIES_PLACE = 4;

const IDEMPOTENCY_KEY: JsonSchema = {
  type: "string",
  minLength: 1,
  maxLength: 255,
  pattern: "^[\\x21-\\x7E]+$",
  description:
    "Optional. Makes a retry safe, as the Idempotency-Key header does over REST: 1 to 255 visible ASCII characters " +
    "(a UUID is good), one per intended write. The same key with the same arguments answers the first call's answer " +
    "again (within 24 hours) without writing twice; with other arguments it fails with idempotency_key_reused; " +
    "while the first call still runs it fails with idempotency_in_flight (retry shortly).",
};

/**
 * The tools and the capabilities document of a server with these bounds and settings (the same
 * registry and bounds as its JSON API, so a tool and its route document the same limits).
 */
export async function apiCatalog(config: Partial<OperationsConfig>, settings: Settings): Promise<ApiCatalog> {
  const resolved = operationsConfig(config);
  const operations = apiOperations(resolved);
  return {
    tools: await apiTools(operations, settings.securityMode, resolved),
    capabilities: buildCapabilities(operations, settings, resolved),
  };
}

/**
 * The tools of `operations` in `mode`: every operation with a `tool` place, in that order, and
 * list_categories; an upload operation takes its file as base64 (a tool call carries no files).
 */
export async function apiTools(
  operations: readonly Operation[],
  mode: SecurityMode,
  bounds: Pick<OperationsConfig, "maxUploadBytes">,
): Promise<CatalogTool[]> {
  const placed = operations
    .filter((op): op is Operation & { tool: number } => op.tool !== undefined)
    .sort((a, b) => a.tool - b.tool);
  const tools: CatalogTool[] = [];
  const described: DescribedShapes = new Map();
  for (const op of placed) {
    if (op.tool > CATEGORIES_PLACE && !tools.some((tool) => tool.name === "list_categories")) {
      tools.push(await categoriesTool(described));
    }
    tools.push(
      op.upload
        ? await documentTool(op, mode, bounds.maxUploadBytes, described)
        : await operationTool(op, mode, described),
    );
  }
  return tools;
}

/** A tool that runs a registry operation's handler, as its route does. */
async function operationTool(
  op: Operation,
  mode: SecurityMode,
  described: DescribedShapes,
): Promise<CatalogTool> {
  const names = wireNames(op.input);
  const params = Object.values(op.input.path ?? {});
  const keyed = takesIdempotencyKey(op);
  const output = await outputOf(op.ok.schema, op.name, described);
  const run = (m: Marketplace, actor: Actor, command: Record<string, unknown>) =>
    // The scope first, as the route checks it: the same refusal on every surface.
    Promise.resolve()
      .then(() => requireOperationScope(op, actor))
      .then(() => op.handle({ m, actor, command }))
      .then(asBody)
      .catch((error: unknown) => {
        throw inWireWords(error, names);
      });
  return {
    name: op.name,
    title: op.summary,
    description: toolDescription(op.description, op.useWhen, output.summary),
    auth: authIn(op, mode),
    ...(op.scope === undefined ? {} : { scope: op.scope }),
    readOnly: op.method === "GET",
    destructive: op.method === "PATCH" || op.method === "PUT" || op.method === "DELETE",
    idempotent: op.method !== "POST",
    openWorld: false,
    rate: rateOf(op),
    http: { method: op.method, path: op.path },
    inputSchema: await inputOf(op, params, keyed),
    outputSchema: output.schema,
    async call(m, actor, args) {
      const { idempotency_key: key, ...rest } = args;
      const values = pathValues(params, rest);
      const given = Object.fromEntries(Object.entries(rest).filter(([name]) => !params.includes(name)));
      // A query string and a path are read strictly by the route (validation.ts); a body by the use case.
      if (op.input.from !== "body") assertStorable(given);
      const command = commandOf(op.input, { fields: given, params: values });
      if (!keyed || key === undefined) {
        return { body: output.present(await run(m, actor, command)), replayed: false };
      }
      // Slow checks before the keyed unit of work, which holds the storage while it runs.
      await op.precheck?.({ m, actor, command }).catch((error: unknown) => {
        throw inWireWords(error, names);
      });
      const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? ""));
      const result = await runKeyed(
        m,
        { op, actor, key, path, body: op.input.from === "body" ? given : null },
        (market) => run(market, actor, command),
      );
      return { body: output.present(result.body), replayed: result.replayed };
    },
  };
}

/** An upload operation (draft_listing_from_document) as a tool: its handler, the file as base64. */
async function documentTool(
  op: Operation,
  mode: SecurityMode,
  maxBytes: number,
  described: DescribedShapes,
): Promise<CatalogTool> {
  const output = await outputOf(ParsedDocumentSchema, op.name, described);
  return {
    name: "draft_listing_from_document",
    title: op.summary,
    description: toolDescription(
      `${op.description} Send the file as base64 (at most ${maxBytes} bytes decoded); nothing is stored: ` +
        "review the draft, then publish it with create_listing.",
      op.useWhen,
      output.summary,
    ),
    auth: authIn(op, mode),
    ...(op.scope === undefined ? {} : { scope: op.scope }),
    readOnly: true,
    destructive: false,
    idempotent: true,
    // With DOCUMENT_AI_URL set, the text goes to that service for extraction.
    openWorld: true,
    rate: rateOf(op),
    http: { method: op.method, path: op.path },
    inputSchema: publishable(asObjectSchema(await jsonSchemaOf(DocumentArguments), op.name)),
    outputSchema: output.schema,
    call: async (m, actor, args) => {
      // Before the document is decoded: a call its credential's scopes do not allow costs nothing more.
      requireOperationScope(op, actor);
      const file = fileFromArguments(actor, args, maxBytes);
      return {
        body: output.present(asBody(await op.handle({ m, actor, command: {}, file }))),
        replayed: false,
      };
    },
  };
}

/** The input schema: path parameters, then the wire fields, then the idempotency key. */
async function inputOf(op: Operation, params: readonly string[], keyed: boolean): Promise<ObjectJsonSchema> {
  const { schema, describe } = op.input;
  const wire = schema
    ? asObjectSchema(await jsonSchemaOf(wireSchema(schema, undefined, describe)), op.name)
    : { properties: {}, required: [] };
  const properties: Record<string, JsonSchema> = {};
  for (const param of params) properties[param] = { type: "string", format: "uuid", description: "A UUID." };
  for (const [name, field] of Object.entries(wire.properties)) {
    if (name in properties || name === "idempotency_key") throw new Error(`tool ${op.name}: ${name} twice`);
    properties[name] = field;
  }
  if (keyed) properties.idempotency_key = IDEMPOTENCY_KEY;
  return publishable({
    type: "object" as const,
    properties,
    required: [...params, ...(wire.required ?? [])],
  });
}

function rateOf(op: Operation): ToolRateClass {
  if (op.rate === "read" || op.rate === "write" || op.rate === "upload") return op.rate;
  throw new Error(`tool ${op.name}: a route of the ${op.rate} class is not a tool`);
}

/** The path parameters' values: each must be a string, as a URL segment is. */
function pathValues(params: readonly string[], args: Record<string, unknown>): Record<string, string> {
  const values: Record<string, string> = {};
  for (const param of params) {
    const value = args[param];
    if (value === undefined) throw new MarketplaceError("invalid_input", `${param}: is required`);
    if (typeof value !== "string")
      throw new MarketplaceError("invalid_input", `${param}: must be a UUID string`);
    values[param] = value;
  }
  assertStorable(values);
  return values;
}

/** Strings as a query string or path must carry them: no NUL, no lone surrogate (decisions.md). */
function assertStorable(args: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(args)) {
    if (typeof value === "string" && !fields.isStorableText(value)) {
      throw new MarketplaceError("invalid_input", `${name}: ${fields.STORABLE_TEXT_MESSAGE}`);
    }
  }
}

function asBody(answer: unknown): Record<string, unknown> {
  if (!isObject(answer)) throw new Error("an operation answered something other than a JSON object");
  return answer;
}

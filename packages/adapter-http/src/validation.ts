import { fields, MarketplaceError, validate } from "@psm/core";
import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { resolver, uniqueSymbol } from "hono-openapi";
import * as v from "valibot";
import type { AppEnv } from "./env.js";

/**
 * Request reading and validation with core's valibot schemas, rejecting early
 * with core's own `validate()` wording ("title: is required"); the query and
 * path middlewares document themselves for hono-openapi (JSON bodies are read
 * and documented by `operation()`). Handlers pass the input *as sent* to the
 * use case, which validates again: the parsed output (a Date for expires_at)
 * would not pass the schema a second time.
 */

/** A `413 payload_too_large` body limit that also counts bodies without (or with a lying) Content-Length. */
export function limitBody(maxBytes: number): MiddlewareHandler<AppEnv> {
  return bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw new MarketplaceError("payload_too_large");
    },
  });
}

/** Reads the body as bytes, re-checking the size (Content-Length is only a claim). */
export async function readBytes(c: Context<AppEnv>, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  const bytes = new Uint8Array(await c.req.arrayBuffer());
  if (bytes.byteLength > maxBytes) throw new MarketplaceError("payload_too_large");
  return bytes;
}

const decoder = new TextDecoder("utf-8", { fatal: true });

/** Parses a JSON object body; an empty body is `{}` so that the schema names what is missing. */
export async function readJsonObject(c: Context<AppEnv>, maxBytes: number): Promise<Record<string, unknown>> {
  const bytes = await readBytes(c, maxBytes);
  if (bytes.byteLength === 0) return {};
  let value: unknown;
  try {
    // Parsed whatever the Content-Type says: agents often omit it, and a form
    // body fails here with a clear invalid_json rather than a silent `{}`.
    value = JSON.parse(decoder.decode(bytes));
  } catch {
    throw new MarketplaceError("invalid_json");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new MarketplaceError("invalid_input", "Body must be a JSON object");
  }
  return value as Record<string, unknown>;
}

/** The query string as a record (a repeated key becomes an array, which schemas refuse). */
export function queryOf(c: Context<AppEnv>): Record<string, string | string[]> {
  return Object.fromEntries(
    Object.entries(c.req.queries()).map(([key, values]) => [
      key,
      values.length === 1 ? (values[0] ?? "") : values,
    ]),
  );
}

/** Query string validated with `schema`; documented as query parameters. */
export function query(schema: v.GenericSchema): MiddlewareHandler<AppEnv> {
  const middleware: MiddlewareHandler<AppEnv> = async (c, next) => {
    validate(schema, queryOf(c));
    await next();
  };
  return Object.assign(middleware, { [uniqueSymbol]: { target: "query", ...resolver(schema) } });
}

const idParam = v.object({ id: fields.uuid });

/**
 * The `{id}` path parameter must be a UUID: 400 by default, or the error given
 * (a listing get answers 404 "Listing not found" for a malformed id).
 */
export function pathId(onInvalid?: () => MarketplaceError): MiddlewareHandler<AppEnv> {
  const middleware: MiddlewareHandler<AppEnv> = async (c, next) => {
    const id = c.req.param("id");
    if (!v.is(fields.uuid, id))
      throw onInvalid ? onInvalid() : new MarketplaceError("invalid_input", "id: must be a UUID");
    await next();
  };
  return Object.assign(middleware, { [uniqueSymbol]: { target: "param", ...resolver(idParam) } });
}

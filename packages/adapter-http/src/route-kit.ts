import {
  type AuthRequirement,
  assertAccess,
  type Capability,
  capabilityTable,
  type Marketplace,
  validate,
} from "@psm/core";
import type { MiddlewareHandler } from "hono";
import { type DescribeRouteOptions, resolver, uniqueSymbol } from "hono-openapi";
import * as v from "valibot";
import type { RateLimitClass, ResolvedConfig } from "./config.js";
import type { AppEnv } from "./env.js";
import { errorResponses } from "./openapi-responses.js";
import { assertStorableParams, readJsonObject } from "./validation.js";

/** What every route module gets: the marketplace, the resolved config and the mode's capability table. */
export interface RouteKit {
  marketplace: Marketplace;
  config: ResolvedConfig;
  capabilities: ReadonlyMap<string, Capability>;
}

/** Builds the kit once per app. */
export function createRouteKit(marketplace: Marketplace, config: ResolvedConfig): RouteKit {
  const table = capabilityTable(marketplace.settings.securityMode);
  return { marketplace, config, capabilities: new Map(table.map((cap) => [cap.name, cap])) };
}

type Responses = NonNullable<DescribeRouteOptions["responses"]>;

/** One route's description: its capability (for /api routes), rate class, docs and answers. */
export interface OperationDef {
  /** Name in core's capabilityTable; its auth is enforced here and documented, and it is the operationId. */
  capability?: string;
  /** The operationId of a route outside /api, which has no capability. */
  id?: string;
  /** The rate-limit class, or null for probes that must never be limited. */
  rate: RateLimitClass | null;
  summary: string;
  description?: string;
  tag: string;
  /** Success answers: a JSON body schema, or a full response object (HTML, scripts). */
  ok: Record<number, v.GenericSchema | Responses[string]>;
  /** Error statuses beyond 401, 429 and 500, which every route can answer. */
  errors?: number[];
  /** A JSON body, validated with core's schema (`name` is its OpenAPI component). */
  body?: { schema: v.GenericSchema; name: string; required?: boolean };
}

type Security = NonNullable<DescribeRouteOptions["security"]>;

// Public routes still take credentials (a bad one is 401; `me` and the status
// filter use a good one), hence the optional `{}` beside both schemes.
function security(auth: AuthRequirement): Security {
  const anonymous: Record<string, string[]> = {};
  const apiKey: Record<string, string[]> = { ApiKeyAuth: [] };
  const bearer: Record<string, string[]> = { BearerAuth: [] };
  if (auth === "public") return [anonymous, apiKey, bearer];
  return auth === "key-or-jwt" ? [apiKey, bearer] : [bearer];
}

/**
 * The first middleware of every route, so that the document, the limiter and
 * the gate cannot drift apart. It documents the route for hono-openapi (the
 * `uniqueSymbol` is that library's hook for custom middleware), then:
 * reads the JSON body (size-limited, an oversized one drained before its 413,
 * parsed, not yet validated) into `c.var.body` so a limiter can key on it
 * (login failures per address), runs the route's rate-limit hook, applies its
 * access rule (401 before any field error), refuses a query or path parameter
 * that breaks core's text rule (NUL, lone surrogates, broken UTF-8), and
 * validates the body with core's schema.
 */
export function operation(kit: RouteKit, def: OperationDef): MiddlewareHandler<AppEnv> {
  const cap = def.capability === undefined ? undefined : kit.capabilities.get(def.capability);
  const operationId = cap?.name ?? def.id;
  if (!operationId) throw new Error(`route "${def.summary}" needs a known capability or an id`);
  const hook = def.rate === null ? undefined : kit.config.rateLimit[def.rate];
  const { body } = def;
  const maxBytes = kit.config.maxJsonBytes;

  const middleware: MiddlewareHandler<AppEnv> = async (c, next) => {
    if (def.rate !== null) c.set("rateLimitClass", def.rate);
    const guarded = async () => {
      const authError = c.get("authError");
      if (authError) throw authError;
      if (cap) assertAccess(c.get("actor"), cap.auth);
      assertStorableParams(c);
      if (body) validate(body.schema, c.get("body"));
      await next();
    };
    const limited = () => (hook ? hook(c, guarded) : guarded());
    // A failed credential is answered 401 before the body is read.
    if (!body || c.get("authError")) return limited();
    c.set("body", await readJsonObject(c, maxBytes));
    return limited();
  };

  const spec: DescribeRouteOptions = {
    operationId,
    summary: def.summary,
    description: def.description ?? cap?.description,
    tags: [def.tag],
    security: cap ? security(cap.auth) : [],
    responses: {
      ...okResponses(def.ok),
      ...errorResponses([
        401,
        ...(def.errors ?? []),
        ...(body ? [400, 413] : []),
        ...(def.rate ? [429] : []),
        500,
      ]),
    },
  };
  if (body) {
    const documented = v.pipe(body.schema, v.metadata({ ref: body.name }));
    spec.requestBody = {
      required: body.required ?? true,
      content: { "application/json": { schema: resolver(documented) } },
    };
  }
  return Object.assign(middleware, { [uniqueSymbol]: { spec } });
}

function okResponses(ok: OperationDef["ok"]): Responses {
  const out: Responses = {};
  for (const [status, value] of Object.entries(ok)) {
    out[status] = isSchema(value)
      ? { description: "Success", content: { "application/json": { schema: resolver(value) } } }
      : value;
  }
  return out;
}

function isSchema(value: v.GenericSchema | Responses[string]): value is v.GenericSchema {
  return "~standard" in value;
}

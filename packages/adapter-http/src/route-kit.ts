import type { Marketplace } from "@psm/core";
import type { MiddlewareHandler } from "hono";
import { type DescribeRouteOptions, resolver, uniqueSymbol } from "hono-openapi";
import type * as v from "valibot";
import type { RateLimitClass, ResolvedConfig } from "./config.js";
import type { AppEnv } from "./env.js";
import { errorResponses } from "./openapi-responses.js";
import { routeGate } from "./registry/mount.js";

/** What the page, health and docs routes get: the marketplace and the resolved config. */
export interface RouteKit {
  marketplace: Marketplace;
  config: ResolvedConfig;
}

type Responses = NonNullable<DescribeRouteOptions["responses"]>;

/**
 * One route outside the JSON API (pages for people, health probes, the API
 * reference): they take no command, so they are described here rather than
 * in the operation registry, but gated the same way.
 */
export interface PageRouteDef {
  /** The operationId. */
  id: string;
  /** The rate-limit class, or null for probes that must never be limited. */
  rate: RateLimitClass | null;
  summary: string;
  description?: string;
  tag: string;
  /** Success answers: a JSON body schema, or a full response object (HTML, scripts). */
  ok: Record<number, v.GenericSchema | Responses[string]>;
  /** Error statuses beyond 401, 429 and 500, which every route can answer. */
  errors?: number[];
}

/**
 * The first middleware of a page route: documents it for hono-openapi (its
 * `uniqueSymbol` hook) and runs the same gate as the registry's routes.
 */
export function operation(kit: RouteKit, def: PageRouteDef): MiddlewareHandler<AppEnv> {
  const middleware = routeGate(def.rate, kit.config, false);
  const spec: DescribeRouteOptions = {
    operationId: def.id,
    summary: def.summary,
    description: def.description,
    tags: [def.tag],
    security: [],
    responses: {
      ...okResponses(def.ok),
      ...errorResponses([401, ...(def.errors ?? []), ...(def.rate ? [429] : []), 500]),
    },
  };
  return Object.assign(middleware, { [uniqueSymbol]: { spec } });
}

function okResponses(ok: PageRouteDef["ok"]): Responses {
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

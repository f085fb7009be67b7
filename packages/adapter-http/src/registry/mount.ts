import type { Marketplace } from "@psm/core";
import {
  type AnswerCache,
  assertStorableUrl,
  createAnswerCache,
  isPrivate,
  parseJsonObject,
  pathAndQuery,
  type UploadedFile,
  type UploadGate,
} from "@psm/host";
import {
  type AuthRequirement,
  authIn,
  commandOf,
  IDEMPOTENCY_POLICY,
  inWireWords,
  type Operation,
  requireOperationScope,
  takesIdempotencyKey,
  wireNames,
  wireSchema,
} from "@psm/operations";
import type { Hono, MiddlewareHandler } from "hono";
import { type DescribeRouteOptions, resolver, uniqueSymbol } from "hono-openapi";
import * as v from "valibot";
import { conditionalJson, encodeAnswer, presentsCredentials } from "../conditional.js";
import type { RateLimitClass, ResolvedConfig } from "../config.js";
import type { AppEnv } from "../env.js";
import { errorResponses } from "../openapi-responses.js";
import { queryOf, readBytes } from "../validation.js";
import { keyedAnswer } from "./idempotency.js";
import { runPrecheck } from "./precheck.js";
import { receiveUpload } from "./receive-upload.js";

/** `/api/listings/{id}` → `/api/listings/:id`. */
export function honoPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ":$1");
}

/**
 * Registers every operation on `app`: middlewares that document it for
 * hono-openapi, the gate, and the handler. Per request, in this order: the JSON body is read
 * (size-limited, parsed, not validated) so that a limiter can key on it; the
 * route's rate limiter counts the request; a failed credential is answered
 * 401; query and path parameters are decoded strictly; the command is built
 * and handed to the use case, which authorises the caller and validates the
 * command, once. Its result is presented and answered with the route's status.
 */
export function mountOperations(
  app: Hono<AppEnv>,
  operations: readonly Operation[],
  marketplace: Marketplace,
  config: ResolvedConfig,
  uploads: UploadGate,
): void {
  const answers = createAnswerCache(marketplace, {
    maxAgeMs: config.answerCacheMs,
    revision: config.listingRevision,
    onLookup: config.onAnswerCache,
  });
  for (const op of operations) {
    // The gate and the handler carry the route's OpenAPI description (hono-openapi reads it from
    // any of a route's handlers), so no handler runs only to carry it.
    const [route, query] = documentation(op, marketplace);
    const handlers: MiddlewareHandler<AppEnv>[] = [
      documented(routeGate(op.rate, config, op.input.from === "body"), route),
      documented(handler(op, marketplace, op.cacheable ? answers : undefined, uploads), query),
    ];
    app.on(op.method, [honoPath(op.path)], ...handlers);
  }
}

/**
 * The gate of every route, registry or page: reads a JSON body when the route
 * takes one, counts the request with the route's limiter (none for `null`),
 * answers a failed credential 401 and decodes parameters strictly.
 */
export function routeGate(
  rate: RateLimitClass | null,
  config: ResolvedConfig,
  readsBody: boolean,
): MiddlewareHandler<AppEnv> {
  const hook = rate === null ? undefined : config.rateLimit[rate];
  return async (c, next) => {
    if (rate !== null) c.set("rateLimitClass", rate);
    const guarded = async () => {
      const authError = c.get("authError");
      if (authError) throw authError;
      assertStorableUrl(c);
      await next();
    };
    // A failed credential is answered 401 before the body is read.
    if (readsBody && !c.get("authError")) {
      const bytes = await readBytes(c, config.maxJsonBytes);
      c.set("body", parseJsonObject(bytes));
      c.set("bodyBytes", bytes);
    }
    return hook ? hook(c, guarded) : guarded();
  };
}

/**
 * Builds the command, runs the use case (which authorises and validates),
 * answers its presented result; with an Idempotency-Key, at most once per key;
 * an anonymous listing read from the answer cache while it is current.
 */
function handler(
  op: Operation,
  m: Marketplace,
  answers: AnswerCache | undefined,
  uploads: UploadGate,
): MiddlewareHandler<AppEnv> {
  const names = wireNames(op.input);
  const fromBody = op.input.from === "body";
  const keyed = takesIdempotencyKey(op);
  // Public reads answer an ETag and honour If-None-Match (conditional.ts).
  const conditional = op.method === "GET" && op.etag === true;
  const mode = m.settings.securityMode;
  return async (c) => {
    // Before any body is read: a call its credential's scopes do not allow costs nothing more.
    requireOperationScope(op, c.get("actor"));
    // Only for anonymous listing reads (answer-cache.ts); keyed by the request as sent, since the
    // same path and query always make the same command.
    const cache = answers !== undefined && !presentsCredentials(c) ? answers : undefined;
    const cacheKey = cache === undefined ? "" : `${op.name} ${pathAndQuery(c.req.url)}`;
    const kept = cache?.get(cacheKey);
    if (kept !== undefined) return conditionalJson(c, kept, op.ok.status, false);
    // Built only when the answer is read: an answer kept or being read needs no command.
    const commandNow = () =>
      commandOf(op.input, {
        fields: fromBody ? (c.get("body") as Record<string, unknown>) : queryOf(c),
        params: c.req.param(),
      });
    const run = async (market: Marketplace, file?: UploadedFile) => {
      const command = commandNow();
      const actor = c.get("actor");
      try {
        return await op.handle({
          m: market,
          actor,
          command,
          requestId: c.get("requestId"),
          ...(file ? { file } : {}),
        });
      } catch (error) {
        throw inWireWords(error, names);
      }
    };
    if (op.upload)
      return c.json(await receiveUpload(c, op.upload.field, uploads, (file) => run(m, file)), op.ok.status);
    if (cache !== undefined && !isPrivate(op.private, mode, () => false)) {
      const answer = await cache.read(cacheKey, async () => {
        const result = await run(m);
        return { answer: encodeAnswer(result), body: result };
      });
      return conditionalJson(c, answer, op.ok.status, false);
    }
    const key = keyed ? c.req.header("Idempotency-Key") : undefined;
    if (key !== undefined) {
      // Slow checks before the keyed unit of work, which holds the storage while it runs.
      await runPrecheck(op, m, c.get("actor"), commandNow(), names);
      return keyedAnswer(c, op, m, key, run);
    }
    if (!conditional) return c.json((await run(m)) as object, op.ok.status);
    const result = await run(m);
    const secret = isPrivate(op.private, mode, () => presentsCredentials(c));
    return conditionalJson(c, encodeAnswer(result), op.ok.status, secret);
  };
}

type Security = NonNullable<DescribeRouteOptions["security"]>;

// Public routes still take credentials (a bad one is 401; `me` and the status
// filter use a good one), hence the optional `{}` beside both schemes.
function security(auth: AuthRequirement, scope: string | undefined): Security {
  // OpenAPI 3.1 lets a requirement of any scheme name the roles it needs: the operation's scope.
  const needs = scope === undefined ? [] : [scope];
  const anonymous: Record<string, string[]> = {};
  const apiKey: Record<string, string[]> = { ApiKeyAuth: needs };
  const bearer: Record<string, string[]> = { BearerAuth: needs };
  if (auth === "public") return [anonymous, apiKey, bearer];
  return auth === "key-or-jwt" ? [apiKey, bearer] : [bearer];
}

/**
 * The operation's OpenAPI description as hono-openapi's `uniqueSymbol` hook reads it: the route's,
 * and its query parameters' when it takes any.
 */
function documentation(op: Operation, m: Marketplace): [object, object | undefined] {
  const { input } = op;
  const fromBody = input.from === "body";
  const spec: DescribeRouteOptions = {
    operationId: op.name,
    summary: op.summary,
    description:
      op.scope === undefined
        ? op.description
        : `${op.description}\n\nA key limited to scopes needs \`${op.scope}\` (else 403 insufficient_scope).`,
    tags: [op.tag],
    security: security(authIn(op, m.settings.securityMode), op.scope),
    responses: {
      [op.ok.status]: {
        description: "Success",
        content: { "application/json": { schema: resolver(op.ok.schema) } },
      },
      ...errorResponses([
        401,
        ...(op.errors ?? []),
        ...(op.scope === undefined ? [] : [403]),
        ...(input.schema || input.path ? [400] : []),
        ...(fromBody ? [413] : []),
        ...(takesIdempotencyKey(op) ? [409, 422] : []),
        429,
        500,
      ]),
    },
  };
  const parameters = [...pathParameters(op), ...(takesIdempotencyKey(op) ? [IDEMPOTENCY_KEY_PARAMETER] : [])];
  if (parameters.length > 0) spec.parameters = parameters;
  if (op.requestBody) spec.requestBody = op.requestBody as DescribeRouteOptions["requestBody"];
  let query: object | undefined;
  if (input.schema) {
    if (fromBody) {
      // Inline, not a component: generated clients (openapi-typescript) make a
      // property with a default required in a component, even in a request body.
      const schema = v.pipe(
        wireSchema(input.schema, undefined, input.describe),
        v.title(input.ref ?? op.name),
      );
      spec.requestBody = {
        required: input.required ?? true,
        content: {
          "application/json": {
            schema: resolver(schema),
            ...(input.example ? { example: input.example } : {}),
          },
        },
      };
    } else {
      query = { target: "query", ...resolver(wireSchema(input.schema, undefined, input.describe)) };
    }
  }
  return [{ spec }, query];
}

function documented(
  middleware: MiddlewareHandler<AppEnv>,
  doc: object | undefined,
): MiddlewareHandler<AppEnv> {
  return doc === undefined ? middleware : Object.assign(middleware, { [uniqueSymbol]: doc });
}

/** The optional Idempotency-Key header of every keyed write. */
const IDEMPOTENCY_KEY_PARAMETER = {
  in: "header" as const,
  name: "Idempotency-Key",
  required: false,
  description: IDEMPOTENCY_POLICY,
  schema: { type: "string" as const, minLength: 1, maxLength: 255, pattern: "^[\\x21-\\x7E]{1,255}$" },
};

function pathParameters(op: Operation) {
  return [...op.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    in: "path" as const,
    name: name ?? "",
    required: true,
    description: "A UUID.",
    schema: { type: "string" as const, format: "uuid" },
  }));
}

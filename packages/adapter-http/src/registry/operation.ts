import type { Actor, Marketplace, SecurityMode } from "@psm/core";
import type { Context, MiddlewareHandler } from "hono";
import type * as v from "valibot";
import type { RateLimitClass, ResolvedConfig } from "../config.js";
import type { AppEnv } from "../env.js";
import type { CommandSchema, WireMapping } from "./wire.js";

/** Who may call an operation, as documented (core enforces it). */
export type AuthRequirement = "public" | "key-or-jwt" | "jwt" | "admin";

/** The HTTP methods the API uses. */
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** What an operation's handler gets: the marketplace, the caller, the command as sent, the request. */
export interface OperationContext<C> {
  m: Marketplace;
  actor: Actor;
  /** The command built from the request; the use case validates it. */
  command: C;
  config: ResolvedConfig;
  /** The Hono context, for the few handlers that need the transport (uploads, hooks, logging). */
  c: Context<AppEnv>;
}

/**
 * One route of the JSON API, described once. Hono registration, the OpenAPI
 * document, rate limiting and GET /api/capabilities are all derived from the
 * registry of these (operations/index.ts), and so can the tools of another
 * adapter: `name` is the operationId and the capability's name.
 */
export interface Operation<C = Record<string, unknown>> {
  name: string;
  method: HttpMethod;
  /** The path with `{param}` placeholders, as OpenAPI and the capabilities document write it. */
  path: string;
  /** Who may call it, per security mode (legacy re-opens gaps 3 and 4). */
  auth: AuthRequirement | { strict: AuthRequirement; legacy: AuthRequirement };
  rate: RateLimitClass;
  tag: string;
  summary: string;
  /** What it does, for the capabilities document and OpenAPI. */
  description: string;
  /** Where the command's fields come from. No schema: the operation takes no body or query. */
  input: WireMapping & {
    /** The body schema's title in the OpenAPI document (bodies are inline, not components). */
    ref?: string;
    /** Whether a JSON body must be sent (default true when `from` is "body"). */
    required?: boolean;
    /** A description per wire field (snake_case), for OpenAPI. */
    describe?: Readonly<Record<string, string>>;
    /** An example body, for OpenAPI. */
    example?: Record<string, unknown>;
  };
  /** The success status and the schema of its JSON body. */
  ok: { status: 200 | 201; schema: v.GenericSchema };
  /** Error statuses beyond 401, 429 and 500 (which every route can answer) and those of a body (400, 413). */
  errors?: number[];
  /** A non-JSON request body, documented as given (multipart uploads). */
  requestBody?: Record<string, unknown>;
  /**
   * False for writes that ignore Idempotency-Key (login, logout and the
   * password flows, decisions.md); every other non-GET operation honours it.
   */
  idempotencyKey?: false;
  /** Transport middleware run after the gate, before the handler (upload shares). */
  use?: MiddlewareHandler<AppEnv>[];
  /** Runs the use case and presents its result in the wire's shape. */
  handle(ctx: OperationContext<C>): Promise<unknown>;
}

/** The documented auth of an operation in a mode. */
export function authIn(op: Pick<Operation, "auth">, mode: SecurityMode): AuthRequirement {
  return typeof op.auth === "string" ? op.auth : op.auth[mode];
}

/** Legacy mode re-opens the gaps of interface 1.0.2 on this operation. */
export const legacyPublic = (auth: AuthRequirement) => ({ strict: auth, legacy: "public" as const });

/**
 * Declares an operation, typing its handler's command from its schema (and
 * path parameters). The type is what the use case expects; its values are
 * what the caller sent, checked by the use case.
 */
export function defineOperation<S extends CommandSchema | undefined = undefined, P extends string = never>(
  op: Omit<Operation<Command<S, P>>, "input"> & {
    input: Operation["input"] & { schema?: S; path?: Readonly<Record<P, string>> };
  },
): Operation {
  return op as unknown as Operation;
}

/** The command a handler receives: the schema's input type and the path fields. */
export type Command<S, P extends string> = (S extends CommandSchema ? v.InferInput<S> : unknown) & {
  [K in P]: string;
};

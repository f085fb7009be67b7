import {
  type Actor,
  hasScope,
  type Marketplace,
  MarketplaceError,
  type Scope,
  type SecurityMode,
} from "@psm/core";
import type { Privacy, PrivatePath, RateClass, UploadedFile } from "@psm/host";
import type * as v from "valibot";
import type { CommandSchema, WireMapping } from "./wire.js";

/**
 * Every operation of the registry by name: its operationId, its capability's and its tool's
 * name. A name anywhere else (a web form's idempotency scope, a test) is checked against it.
 */
export type OperationName =
  | "capabilities"
  | "search_listings"
  | "create_listing"
  | "get_listing"
  | "update_listing"
  | "delete_listing"
  | "record_view"
  | "sign_up"
  | "log_in"
  | "whoami"
  | "log_out"
  | "request_password_reset"
  | "update_password"
  | "verify_email"
  | "list_api_keys"
  | "create_api_key"
  | "deactivate_api_key"
  | "rotate_api_key"
  | "list_events"
  | "list_webhooks"
  | "create_webhook"
  | "get_webhook"
  | "update_webhook"
  | "delete_webhook"
  | "rotate_webhook_secret"
  | "test_webhook"
  | "list_webhook_deliveries"
  | "replay_webhook"
  | "list_saved_searches"
  | "create_saved_search"
  | "delete_saved_search"
  | "get_notification_settings"
  | "update_notification_settings"
  | "list_messages"
  | "send_message"
  | "list_profiles"
  | "sync_profile"
  | "admin_check"
  | "get_listing_limit"
  | "listing_limit_compat"
  | "update_user"
  | "draft_listing_from_document"
  | "admin_list_posts"
  | "admin_delete_post"
  | "admin_delete_post_by_id"
  | "admin_list_users"
  | "admin_delete_user"
  | "admin_delete_user_by_id";

/** Who may call an operation, as documented (core enforces it). */
export type AuthRequirement = "public" | "key-or-jwt" | "jwt" | "admin";

/** The HTTP methods the API uses. */
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * What an operation's handler gets: the marketplace, the caller and the typed command, never the
 * transport; so every surface runs the same handler.
 */
export interface OperationContext<C> {
  m: Marketplace;
  actor: Actor;
  /** The command built from the request; the use case validates it. */
  command: C;
  /** The file of an upload operation, read by the surface within the host's upload gate. */
  file?: UploadedFile;
  /** The request's id, for a handler that logs (absent outside a request). */
  requestId?: string;
}

/**
 * One operation of the marketplace, described once and free of transport. The JSON API's
 * routes and OpenAPI document, GET /api/capabilities and the MCP tools are all derived from
 * the registry of these (operations/index.ts): `name` is the operationId, the capability's
 * and the tool's name.
 */
export interface Operation<C = Record<string, unknown>> {
  name: OperationName;
  method: HttpMethod;
  /** The path with `{param}` placeholders, as OpenAPI and the capabilities document write it. */
  path: string;
  /** Who may call it, per security mode (legacy re-opens gaps 3 and 4). */
  auth: AuthRequirement | { strict: AuthRequirement; legacy: AuthRequirement };
  /**
   * The scope a credential limited to scopes needs to call it (decisions.md 1.3.0); absent, any
   * credential may (public reads, the caller's own identity). Core refuses a call outside a
   * credential's scopes; the surfaces refuse it before reading a body, list only the tools a
   * credential may call, and OpenAPI and the capabilities document name it.
   */
  scope?: Scope;
  /** Its rate class (the host's): every surface that offers it limits it so. */
  rate: RateClass;
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
  ok: { status: 200 | 201 | 202; schema: v.GenericSchema };
  /** Error statuses beyond 401, 429 and 500 (which every route can answer) and those of a body (400, 413). */
  errors?: number[];
  /** A non-JSON request body, documented as given (multipart uploads). */
  requestBody?: Record<string, unknown>;
  /**
   * An upload: the surface reads the body through the host's upload gate (the caller's share,
   * deadline, stall bound, byte budget, parse slot) and hands the file of `field` to the handler.
   */
  upload?: { field: string };
  /** An anonymous caller's answer may be reused from the answer cache while it is current. */
  cacheable?: true;
  /**
   * Its answers, errors included, may carry a secret or private data (the host marks them
   * `no-store` before the route runs): always, or when the caller is identified (see Privacy).
   */
  private?: Privacy;
  /** A public read: its answer carries an ETag and honours If-None-Match. */
  etag?: true;
  /** Its place among the tools agents see (1 first); absent, the operation is no tool. */
  tool?: number;
  /**
   * The dotted paths of the success answer's fields that hold a secret shown once (a key's
   * value, a signing secret). The answer kept for an idempotent replay holds REDACTED_SECRET
   * there instead: no secret is stored beside its digest, and no replay hands one out again.
   */
  secrets?: readonly string[];
  /**
   * For a tool: when an agent should call it, completing "Use it …" in the tool's description
   * (tools/list); what it answers is said from its output schema.
   */
  useWhen?: string;
  /**
   * False for writes that ignore Idempotency-Key (login, logout and the
   * password flows, decisions.md); every other non-GET operation honours it.
   */
  idempotencyKey?: false;
  /**
   * Checks that need no storage but may take time (a URL's DNS lookup), run by a surface before
   * an idempotent write's unit of work, which holds the storage while it runs (on SQLite, every
   * other caller waits). The handler's use case checks again; the check's adapter remembers.
   */
  precheck?(ctx: Omit<OperationContext<C>, "file" | "requestId">): Promise<void>;
  /** Runs the use case and presents its result in the wire's shape. */
  handle(ctx: OperationContext<C>): Promise<unknown>;
}

/** The paths of the private operations, for the host's private-answer policy (Surface's `private`). */
export function privatePaths(ops: readonly Pick<Operation, "path" | "private">[]): PrivatePath[] {
  return ops.flatMap((op) => (op.private === undefined ? [] : [{ path: op.path, privacy: op.private }]));
}

/** Whether the caller's credential may call the operation (an anonymous caller is left to its auth). */
export function scopeAllows(op: Pick<Operation, "scope">, actor: Actor): boolean {
  return op.scope === undefined || actor.kind !== "user" || hasScope(actor, op.scope);
}

/** Refuses, as core would, a call outside the caller's scopes: before a surface reads its body. */
export function requireOperationScope(op: Pick<Operation, "scope">, actor: Actor): void {
  if (!scopeAllows(op, actor)) {
    throw new MarketplaceError("insufficient_scope", `This credential lacks the scope ${op.scope}`);
  }
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

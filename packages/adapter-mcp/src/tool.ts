import type { Actor, Marketplace, Scope } from "@psm/core";
import type { RateClass } from "@psm/host";
import type { AuthRequirement } from "@psm/operations";

/** A JSON Schema whose root describes an object, as MCP requires of tool schemas. */
export type ObjectSchema = { type: "object"; [keyword: string]: unknown };

/** Who may call a tool, in the capabilities document's words (the registry's). */
export type ToolAuth = AuthRequirement;

/**
 * One tool for agents, transport-neutral: what the MCP server lists and calls. `apiCatalog`
 * (catalog.ts) derives every tool from an operation of the registry (@psm/operations), so its
 * name, input and output are the REST operation's; an embedder may hand in tools of its own.
 */
export interface McpTool {
  /** The operation's name (its operationId), or the tool's own for list_categories. */
  name: string;
  title: string;
  description: string;
  /** Who may call it in the running mode, as the capabilities document says. */
  auth: ToolAuth;
  /** The scope a credential limited to scopes needs; a credential without it does not see the tool. */
  scope?: Scope;
  /** It changes nothing. */
  readOnly: boolean;
  /** It may overwrite or delete (else only adds). */
  destructive: boolean;
  /** Calling it again with the same arguments changes nothing more. */
  idempotent: boolean;
  /** It may reach outside the marketplace (a configured document-AI service). */
  openWorld: boolean;
  /** The rate class of the REST route it stands for: a call counts as that request. */
  rate: Extract<RateClass, "read" | "write" | "upload">;
  /** The REST operation it runs, if any (for llms.txt). */
  http: { method: string; path: string } | null;
  /** The snake_case wire input: body or query fields, path parameters, and `idempotency_key` on writes. */
  inputSchema: ObjectSchema;
  /** The answer: the success body, or `{error, code}` (a tool failure carries the API's error body). */
  outputSchema: ObjectSchema;
  /**
   * Runs the use case as `actor` and answers the wire body (with other users' text under
   * `untrusted_` names). Failures throw MarketplaceError in the wire's words, as the REST route
   * would answer them.
   */
  call(
    m: Marketplace,
    actor: Actor,
    args: Record<string, unknown>,
  ): Promise<{ body: Record<string, unknown>; replayed: boolean }>;
}

/** What `/llms.txt` and the server's identity need of GET /api/capabilities (its documented shape). */
export interface CapabilitiesSummary {
  name: string;
  version: string;
  security_mode: "strict" | "legacy";
  capabilities: readonly {
    name: string;
    method: string;
    path: string;
    auth: string;
    scope?: string;
    description: string;
  }[];
  scopes: readonly { name: string; description: string }[];
  categories: readonly { value: string; label: string }[];
  authentication: readonly { type: string; header: string; format: string; how_obtained: string }[];
}

/** Where unexpected failures are reported (a pino-compatible logger fits). */
export interface ErrorLogger {
  error(obj: object, msg?: string): void;
}

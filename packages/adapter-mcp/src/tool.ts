import type { Actor, Marketplace } from "@psm/core";

/** A JSON Schema whose root describes an object, as MCP requires of tool schemas. */
export type ObjectSchema = { type: "object"; [keyword: string]: unknown };

/** Who may call a tool, in the capabilities document's words. */
export type ToolAuth = "public" | "key-or-jwt" | "jwt" | "admin";

/**
 * One tool as this adapter needs it. @psm/adapter-http's `apiCatalog` makes
 * them from its route registry (this package does not import it: the server
 * app hands the catalog in), so names and schemas are the REST operations'.
 */
export interface McpTool {
  name: string;
  title: string;
  description: string;
  auth: ToolAuth;
  readOnly: boolean;
  destructive: boolean;
  idempotent: boolean;
  openWorld: boolean;
  /** The rate-limit class of the REST route it stands for: a call counts as that request. */
  rate: "read" | "write" | "upload";
  /** The REST operation it runs, if any (for llms.txt). */
  http: { method: string; path: string } | null;
  inputSchema: ObjectSchema;
  outputSchema: ObjectSchema;
  /** Answers the wire body; throws MarketplaceError (in the wire's words) for an expected failure. */
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
  capabilities: readonly { name: string; method: string; path: string; auth: string; description: string }[];
  categories: readonly { value: string; label: string }[];
  authentication: readonly { type: string; header: string; format: string; how_obtained: string }[];
}

/** Where unexpected failures are reported (a pino-compatible logger fits). */
export interface ErrorLogger {
  error(obj: object, msg?: string): void;
}

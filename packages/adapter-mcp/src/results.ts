import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ErrorCode } from "@psm/core";

/** The API's error body: what a failed tool call carries, as structured content and as text. */
export interface ToolError {
  error: string;
  code: ErrorCode;
}

/** A successful call: the wire body as structured content and, for clients that read only text, as JSON text. */
export function successResult(body: Record<string, unknown>, replayed: boolean): CallToolResult {
  return {
    content: [{ type: "text", text: JSON.stringify(body) }],
    structuredContent: body,
    // The REST route's Idempotent-Replayed header, for a caller that wants to know.
    ...(replayed ? { _meta: { idempotent_replayed: true } } : {}),
  };
}

/**
 * A failed call: a result with `isError`, never a JSON-RPC error (MCP keeps
 * those for protocol faults), so that the model reads the code and corrects
 * its call. `retryAfter` is the REST answer's Retry-After, in seconds.
 */
export function errorResult(error: ToolError, retryAfter?: number): CallToolResult {
  return {
    content: [{ type: "text", text: JSON.stringify(error) }],
    structuredContent: { ...error },
    isError: true,
    ...(retryAfter === undefined ? {} : { _meta: { retry_after_seconds: Math.ceil(retryAfter) } }),
  };
}

import type { MiddlewareHandler } from "hono";
import { describeRoute } from "hono-openapi";

// decisions.md: /openapi.json describes every route the server serves, these included.

const ERROR = {
  description: "`{error, code}`, as every error of the API",
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
};
const JSON_RPC = (description: string) => ({
  description,
  content: {
    "application/json": { schema: { type: "object" as const, description: "A JSON-RPC 2.0 message" } },
  },
});
// Public like the API's public routes: a credential, when presented, must be valid.
const SECURITY: Record<string, string[]>[] = [{}, { ApiKeyAuth: [] }, { BearerAuth: [] }];

/** POST /mcp. */
export const describeMcp: MiddlewareHandler = describeRoute({
  operationId: "mcp",
  summary: "Model Context Protocol endpoint",
  description:
    "MCP over Streamable HTTP, stateless: POST JSON-RPC messages (initialize, tools/list, tools/call); answers are JSON. " +
    "Tools are the API's operations (see /llms.txt). Without credentials only public read-only tools are listed. " +
    "`?read_only=true` or `X-MCP-Read-Only: true` lists no tool that writes.",
  tags: ["agents"],
  security: SECURITY,
  parameters: [
    {
      in: "query",
      name: "read_only",
      required: false,
      description: "true: this session lists and runs no tool that writes.",
      schema: { type: "string", enum: ["true", "false", "1", "0"] },
    },
  ],
  requestBody: JSON_RPC("A JSON-RPC request or notification"),
  responses: {
    200: JSON_RPC("The JSON-RPC response (tool failures are results with isError, not errors)"),
    202: { description: "A notification, accepted" },
    400: JSON_RPC("A body that is not JSON (JSON-RPC parse error), or an invalid read_only"),
    401: {
      ...ERROR,
      description: "A presented credential is invalid; WWW-Authenticate names the resource metadata",
    },
    403: { ...ERROR, description: "An Origin that is neither this server's nor a CORS origin" },
    406: JSON_RPC("The client does not accept application/json and text/event-stream"),
    413: ERROR,
    429: ERROR,
  },
});

/** GET /.well-known/oauth-protected-resource/mcp. */
export const describeProtectedResource: MiddlewareHandler = describeRoute({
  operationId: "mcp_protected_resource",
  summary: "OAuth 2.0 Protected Resource Metadata of /mcp (RFC 9728)",
  tags: ["agents"],
  security: [],
  responses: { 200: { description: "The metadata", content: { "application/json": {} } } },
});

/** GET /llms.txt. */
export const describeLlmsTxt: MiddlewareHandler = describeRoute({
  operationId: "llms_txt",
  summary: "What this service is and how an agent connects (llmstxt.org)",
  tags: ["agents"],
  security: [],
  responses: { 200: { description: "Markdown", content: { "text/plain": {} } } },
});

import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { type Actor, isMarketplaceError, type Marketplace } from "@psm/core";
import { instructionsFor } from "./instructions.js";
import { errorResult, successResult } from "./results.js";
import type { ErrorLogger, McpTool } from "./tool.js";
import { isListed } from "./visibility.js";

/** The options of createMcpServer. */
export interface McpServerOptions {
  /** Every tool of the catalog; the server lists those this caller may use. */
  tools: readonly McpTool[];
  /** List and run no tool that writes. */
  readOnly?: boolean;
  /** The server's identity in `initialize` (the capabilities document's name and version). */
  info?: { name: string; title?: string; version: string };
  /** Where unexpected failures are reported; they reach the model as `internal_error` only. */
  logger?: ErrorLogger;
  /**
   * Resolves the caller again before each tool call, for a server that
   * outlives one request (stdio): a key deactivated meanwhile stops working
   * at once, as it does over HTTP.
   */
  currentActor?: () => Promise<Actor>;
}

const silent: ErrorLogger = { error() {} };

/**
 * The MCP server of one caller: the SDK's McpServer, its tools those of the
 * catalog `actor` may use. Stateless: make one per HTTP request (the SDK's
 * stateless transport cannot be reused) or one per stdio process.
 *
 * The tools are declared on the SDK's underlying `server` rather than with
 * `registerTool`, which takes zod schemas only: these schemas are JSON Schema
 * converted from the route registry's valibot schemas, the same conversion
 * /openapi.json uses, and converting them again would be a second place to drift.
 */
export function createMcpServer(
  marketplace: Marketplace,
  actor: Actor,
  options: McpServerOptions,
): McpServer {
  const readOnly = options.readOnly ?? false;
  const logger = options.logger ?? silent;
  const listed = options.tools.filter((tool) => isListed(tool, actor, readOnly));
  const mcp = new McpServer(options.info ?? { name: "psm-marketplace", version: "0.0.0" }, {
    capabilities: { tools: {} },
    instructions: instructionsFor(actor, readOnly),
  });
  mcp.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed.map(describeTool) }));
  mcp.server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const { name, arguments: args = {} } = request.params;
    const tool = options.tools.find((candidate) => candidate.name === name);
    if (tool === undefined) return errorResult({ error: `Unknown tool: ${name}`, code: "not_found" });
    if (readOnly && !tool.readOnly) {
      return errorResult({ error: `This session is read-only: ${name} writes`, code: "forbidden" });
    }
    // A tool hidden from this caller still runs: core refuses it (unauthenticated,
    // admin_required) with the REST route's own answer, which tells the model why.
    try {
      const caller = options.currentActor ? await options.currentActor() : actor;
      const { body, replayed } = await tool.call(marketplace, caller, args);
      return successResult(body, replayed);
    } catch (error) {
      if (isMarketplaceError(error) && error.code !== "internal_error") {
        return errorResult({ error: inToolWords(error.message), code: error.code }, error.retryAfter);
      }
      logger.error({ tool: name, err: error }, "MCP tool failed");
      return errorResult({ error: "Internal server error", code: "internal_error" });
    }
  });
  return mcp;
}

/** A catalog tool as tools/list shows it, annotations included. */
export function describeTool(tool: McpTool): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema,
    outputSchema: tool.outputSchema,
    annotations: {
      title: tool.title,
      readOnlyHint: tool.readOnly,
      // The MCP defaults assume the worst for tools that write; say it plainly for each.
      destructiveHint: tool.destructive,
      idempotentHint: tool.idempotent,
      openWorldHint: tool.openWorld,
    },
  };
}

/**
 * A message in the tool's words: the REST header an error names is a tool argument here
 * (core's idempotency messages say "Idempotency-Key"; a tool takes `idempotency_key`).
 */
function inToolWords(message: string): string {
  return message.replaceAll("Idempotency-Key", "idempotency_key");
}

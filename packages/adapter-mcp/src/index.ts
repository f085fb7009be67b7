/** @psm/adapter-mcp: the marketplace as a Model Context Protocol server. */
export {
  apiTools,
  type CatalogTool,
  type JsonSchema,
  type ObjectJsonSchema,
  type ToolRateClass,
  type ToolResult,
} from "./catalog.js";
// The HTTP surface (createMcpApp, the catalog, origins): @psm/adapter-mcp/http's names.
export * from "./http.js";
export { instructionsFor } from "./instructions.js";
export { llmsTxt } from "./llms-txt.js";
export {
  MCP_PATH,
  PROTECTED_RESOURCE_PATH,
  protectedResourceMetadata,
  wwwAuthenticate,
} from "./protected-resource.js";
export type { RateClass } from "./rate-classes.js";
export { READ_ONLY_HEADER, READ_ONLY_PARAM } from "./read-only.js";
export { errorResult, successResult, type ToolError } from "./results.js";
export { createMcpServer, describeTool, type McpServerOptions } from "./server.js";
export { type StdioSession, serveStdio } from "./stdio.js";
export type { CapabilitiesSummary, ErrorLogger, McpTool, ObjectSchema, ToolAuth } from "./tool.js";
export { isListed } from "./visibility.js";

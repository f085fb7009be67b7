/**
 * @psm/adapter-mcp/http: the agent surface for an HTTP server, without the MCP SDK, which
 * the surface loads on its first POST /mcp (the package's index loads it at once, for
 * createMcpServer). A server that mounts the surface imports this entry.
 */
export { type ApiCatalog, apiCatalog } from "./catalog.js";
export {
  createMcpApp,
  createMcpSurface,
  MCP_PRIVATE_PATHS,
  type McpAppOptions,
  type McpVariables,
} from "./http-app.js";
export { allowedOrigins, isAllowedOrigin } from "./origin.js";

import type { Logger, RateLimitHooks, Surface } from "@psm/adapter-http";
import { allowedOrigins, apiCatalog, createMcpSurface } from "@psm/adapter-mcp/http";
import type { Marketplace } from "@psm/core";
import { envelopeBytes, type UploadGate } from "@psm/host";
import type { Config } from "./config.js";

/**
 * The largest document an agent may send to draft_listing_from_document: the
 * upload limit of POST /api/parse-pdf (the HTTP adapter's default, which this
 * server does not change).
 */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/** A signed-in caller's /mcp body: the document as base64 (4 bytes per 3) and room for the JSON around it. */
const MAX_MCP_BODY_BYTES = envelopeBytes(MAX_UPLOAD_BYTES, "base64-json");

/** The tool catalog of this server, from the registry of operations the API mounts too. */
export function toolCatalog(marketplace: Marketplace) {
  return apiCatalog({ maxUploadBytes: MAX_UPLOAD_BYTES }, marketplace.settings);
}

/**
 * The agent surface, mounted at `/` beside the API: POST /mcp, /llms.txt and
 * the endpoint's protected-resource metadata, behind the API's middlewares
 * and rate limiters (a tool call counts as the REST call it stands for), its documents through
 * the process's one upload gate.
 */
export async function mcpSurface(
  config: Config,
  marketplace: Marketplace,
  rateLimit: RateLimitHooks | undefined,
  uploads: UploadGate,
  logger: Logger,
): Promise<Surface> {
  const catalog = await toolCatalog(marketplace);
  return createMcpSurface({
    marketplace,
    tools: catalog.tools,
    capabilities: catalog.capabilities,
    publicUrl: config.publicUrl,
    allowedOrigins: allowedOrigins(config.publicUrl, config.corsOrigins),
    readOnly: config.mcpReadOnly,
    anonymous: config.mcpAnonymous,
    oauth: config.oauth.enabled,
    maxBodyBytes: MAX_MCP_BODY_BYTES,
    uploads,
    ...(rateLimit ? { rateLimit } : {}),
    logger,
  });
}

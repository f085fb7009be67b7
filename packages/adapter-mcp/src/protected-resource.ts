/** The path of the MCP endpoint on the server. */
export const MCP_PATH = "/mcp";

/** Where the RFC 9728 metadata of the MCP endpoint is served (its well-known URI for the path /mcp). */
export const PROTECTED_RESOURCE_PATH = "/.well-known/oauth-protected-resource/mcp";

/**
 * The OAuth 2.0 Protected Resource Metadata of /mcp (RFC 9728). Credentials
 * are the API's own, an API key or the JWT of POST /api/auth/login, sent as a
 * Bearer token; no authorization server issues them, so none is named.
 */
export function protectedResourceMetadata(publicUrl: string, name: string) {
  return {
    resource: `${publicUrl}${MCP_PATH}`,
    resource_name: `${name} (MCP)`,
    bearer_methods_supported: ["header"],
    resource_documentation: `${publicUrl}/llms.txt`,
  };
}

/** The WWW-Authenticate value of a 401 from /mcp: points at the metadata, as RFC 9728 section 5.1 asks. */
export function wwwAuthenticate(publicUrl: string): string {
  return `Bearer error="invalid_token", resource_metadata="${publicUrl}${PROTECTED_RESOURCE_PATH}"`;
}

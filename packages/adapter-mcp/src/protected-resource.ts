/** The path of the MCP endpoint on the server. */
export const MCP_PATH = "/mcp";

/** Where the RFC 9728 metadata of the MCP endpoint is served (its well-known URI for the path /mcp). */
export const PROTECTED_RESOURCE_PATH = "/.well-known/oauth-protected-resource/mcp";

/**
 * The OAuth 2.0 Protected Resource Metadata of /mcp (RFC 9728). Credentials are the API's own (an
 * API key, or the JWT of POST /api/auth/login, as a Bearer token) and, with `oauth`, the access
 * tokens of the server's own authorization server (its issuer is PUBLIC_URL), which is named so
 * that an MCP client finds everything from the endpoint's URL.
 */
export function protectedResourceMetadata(
  publicUrl: string,
  name: string,
  oauth?: { scopes: readonly string[] },
) {
  return {
    resource: `${publicUrl}${MCP_PATH}`,
    resource_name: `${name} (MCP)`,
    ...(oauth ? { authorization_servers: [publicUrl], scopes_supported: [...oauth.scopes] } : {}),
    bearer_methods_supported: ["header"],
    resource_documentation: `${publicUrl}/llms.txt`,
  };
}

/** The WWW-Authenticate value of a 401 from /mcp: points at the metadata, as RFC 9728 section 5.1 asks. */
export function wwwAuthenticate(publicUrl: string): string {
  return `Bearer error="invalid_token", resource_metadata="${publicUrl}${PROTECTED_RESOURCE_PATH}"`;
}

import { SCOPES } from "@psm/core";

/** Where this surface answers (the authorization endpoint is a page: adapter-web's). */
export const OAUTH_PATHS = {
  /** RFC 8414 section 3: the metadata of an issuer without a path. */
  metadata: "/.well-known/oauth-authorization-server",
  token: "/oauth/token",
  register: "/oauth/register",
  revoke: "/oauth/revoke",
  /** RFC 9728 metadata of the JSON API (the MCP endpoint's is adapter-mcp's). */
  apiResource: "/.well-known/oauth-protected-resource/api",
} as const;

/**
 * The authorization server's metadata (RFC 8414): the issuer is PUBLIC_URL; code flow with PKCE
 * S256 only, public clients only (no client secret), `iss` in every authorization response (RFC
 * 9207), Client ID Metadata Documents when `metadataDocuments` (the MCP specification's field).
 */
export function authorizationServerMetadata(
  publicUrl: string,
  authorizePath: string,
  metadataDocuments: boolean,
) {
  return {
    issuer: publicUrl,
    authorization_endpoint: `${publicUrl}${authorizePath}`,
    token_endpoint: `${publicUrl}${OAUTH_PATHS.token}`,
    registration_endpoint: `${publicUrl}${OAUTH_PATHS.register}`,
    revocation_endpoint: `${publicUrl}${OAUTH_PATHS.revoke}`,
    scopes_supported: [...SCOPES],
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: ["none"],
    revocation_endpoint_auth_methods_supported: ["none"],
    authorization_response_iss_parameter_supported: true,
    client_id_metadata_document_supported: metadataDocuments,
    service_documentation: `${publicUrl}/llms.txt`,
  };
}

/** The JSON API's protected-resource metadata (RFC 9728), naming this server as its authorization server. */
export function apiResourceMetadata(publicUrl: string, name: string) {
  return {
    resource: `${publicUrl}/api`,
    resource_name: `${name} (API)`,
    authorization_servers: [publicUrl],
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ["header"],
    resource_documentation: `${publicUrl}/openapi.json`,
  };
}

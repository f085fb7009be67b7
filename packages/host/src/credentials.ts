import {
  type Actor,
  ANONYMOUS,
  API_KEY_PREFIX,
  type Credentials,
  isMarketplaceError,
  type Marketplace,
  MarketplaceError,
} from "@psm/core";

/** A request's caller: anonymous when it presented nothing, with `authError` when what it presented failed. */
export interface Caller {
  actor: Actor;
  /**
   * A presented credential that failed. A surface answers it with 401 after its rate limiter
   * has counted the request, so guessing keys or tokens is rate limited like any other request.
   */
  authError?: Error;
}

/**
 * The credentials a request presents; an empty header counts as absent. `X-API-Key: psm_…`,
 * `Authorization: Bearer psm_…` (an API key, as MCP clients send it) or `Authorization: Bearer
 * <JWT>`. Basic or a malformed Bearer is a presented credential that cannot be valid.
 */
export function credentialsOf(headers: Headers): Credentials {
  const credentials: Credentials = {};
  const apiKey = headers.get("x-api-key")?.trim();
  if (apiKey) credentials.apiKey = apiKey;
  const authorization = headers.get("authorization")?.trim();
  if (authorization) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization);
    if (!match?.[1]) throw new MarketplaceError("unauthenticated", "Invalid authorization header");
    // A key as a bearer token, unless X-API-Key already names one: then the bearer is a JWT.
    if (match[1].startsWith(API_KEY_PREFIX) && credentials.apiKey === undefined) {
      credentials.apiKey = match[1];
    } else credentials.bearer = match[1];
  }
  return credentials;
}

/** Whether the request presents any credential header (an answer to it may be private). */
export function presentsCredentials(headers: Headers): boolean {
  return headers.has("authorization") || headers.has("x-api-key");
}

/**
 * The one credential resolver of every surface: the caller of a request, through core, once per
 * request. No credential is anonymous (core's rule too), and most reads skip the call. `resource`
 * is what the request addresses (resourceOf): an OAuth access token must be meant for it.
 */
export async function resolveCaller(
  marketplace: Marketplace,
  headers: Headers,
  resource?: string,
): Promise<Caller> {
  try {
    const credentials = credentialsOf(headers);
    if (credentials.apiKey === undefined && credentials.bearer === undefined) return { actor: ANONYMOUS };
    return { actor: await marketplace.auth.authenticate({ ...credentials, resource }) };
  } catch (error) {
    if (!isMarketplaceError(error, "unauthenticated")) throw error;
    return { actor: ANONYMOUS, authError: error };
  }
}

/**
 * The resource (RFC 8707) a request path addresses, for OAuth audiences: the MCP endpoint, or the
 * server's API (every other path: the JSON API, and the pages, which take no bearer token anyway).
 */
export function resourceOf(publicUrl: string, path: string): string {
  return path === "/mcp" || path.startsWith("/mcp/") ? `${publicUrl}/mcp` : `${publicUrl}/api`;
}

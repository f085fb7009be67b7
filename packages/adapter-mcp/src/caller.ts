import { type Actor, API_KEY_PREFIX, isMarketplaceError, type Marketplace } from "@psm/core";

/**
 * The caller of an /mcp request: the actor the API's credential check left,
 * except that an API key may also come as `Authorization: Bearer psm_…` (MCP
 * clients often send credentials only that way), which that check reads as a
 * JWT. Such a key is resolved as a key; any other failed credential stays failed.
 */
export async function callerOf(
  marketplace: Marketplace,
  headers: Headers,
  checked: { actor: Actor; authError?: Error | undefined },
): Promise<{ actor: Actor; authError?: Error | undefined }> {
  if (checked.authError === undefined || headers.has("x-api-key")) return checked;
  const bearer = /^Bearer\s+(\S+)$/i.exec(headers.get("authorization")?.trim() ?? "")?.[1];
  if (bearer === undefined || !bearer.startsWith(API_KEY_PREFIX)) return checked;
  try {
    return { actor: await marketplace.auth.authenticate({ apiKey: bearer }) };
  } catch (error) {
    if (isMarketplaceError(error, "unauthenticated")) return checked;
    throw error;
  }
}

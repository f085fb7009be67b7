/** A fetched Client ID Metadata Document, or why it could not be had. */
export type FetchedMetadata = { ok: true; document: unknown } | { ok: false; reason: string };

/**
 * Where Client ID Metadata Documents come from (the MCP specification's client registration): an
 * adapter fetches the JSON at an https `client_id` URL under the webhook SSRF rules (no loopback,
 * private or metadata address; no redirect), bounded in bytes and time, and caches it.
 */
export interface ClientMetadataSource {
  fetch(url: string): Promise<FetchedMetadata>;
}

import { MarketplaceError } from "@psm/core";

/**
 * Reads a request body of at most `maxBytes` as JSON. Content-Length is only
 * a claim: the stream is counted as it arrives and abandoned past the limit
 * (413 payload_too_large). Returns undefined for a body that is not JSON, for
 * the caller to answer as the protocol says (a JSON-RPC parse error).
 */
export async function readJsonBody(
  request: Request,
  maxBytes: number,
): Promise<{ json: unknown } | undefined> {
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (declared > maxBytes) throw new MarketplaceError("payload_too_large");
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel();
        throw new MarketplaceError("payload_too_large");
      }
      chunks.push(value);
    }
  }
  try {
    return { json: JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks))) };
  } catch {
    return undefined;
  }
}

import { MarketplaceError } from "@psm/core";
import { findFilePart, multipartBoundary, type UploadedFile, type UploadGate } from "@psm/host";
import type { Context } from "hono";
import type { AppEnv } from "../env.js";

/**
 * An upload operation's file, read through the host's upload gate: an anonymous caller is told
 * 401 before the server holds a byte of it (the use case authorises again), the body must be
 * multipart, and the file of `field` must be within the gate's size.
 */
export async function receiveUpload<T>(
  c: Context<AppEnv>,
  field: string,
  uploads: UploadGate,
  work: (file: UploadedFile) => Promise<T>,
): Promise<T> {
  const actor = c.get("actor");
  if (actor.kind !== "user") throw new MarketplaceError("unauthenticated");
  const boundary = multipartBoundary(c.req.header("content-type") ?? "");
  if (boundary === null) {
    throw new MarketplaceError("invalid_input", `${field}: send multipart/form-data with a ${field} field`);
  }
  return uploads.receive(c, actor.user.id, "multipart", async (bytes) => {
    const file = findFilePart(bytes, boundary, field);
    if (file === null) throw new MarketplaceError("invalid_input", `${field}: is required`);
    if (file.bytes.byteLength > uploads.bounds.maxFileBytes) throw new MarketplaceError("payload_too_large");
    // A copy of its own, which the parser hands over to its worker thread (transferred, not copied again).
    return work({ ...file, bytes: new Uint8Array(file.bytes) });
  });
}

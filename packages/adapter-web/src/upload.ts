import { MarketplaceError } from "@psm/core";
import type { Context } from "hono";
import { readBytes } from "./forms.js";

/** The parts of an uploaded form: its text fields, and the file of one field. */
export interface UploadForm {
  fields: Record<string, string>;
  file: File | null;
}

// Room for the boundaries, the part headers and the token around a file of the maximum size.
const MULTIPART_OVERHEAD = 64 * 1024;
// Read and dropped past the bound, so the "too large" page reaches a browser still sending.
const DRAIN_BYTES = 16 * 1024 * 1024;

/**
 * Reads a `multipart/form-data` body of at most `maxFileBytes` plus the
 * overhead of its parts (`payload_too_large` past it, before anything is
 * parsed), then parses it; `fileField` is the one file it keeps.
 */
export async function readUpload(c: Context, maxFileBytes: number, fileField: string): Promise<UploadForm> {
  const type = c.req.header("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(type)) {
    throw new MarketplaceError("invalid_input", "The form could not be read");
  }
  const bytes = await readBytes(c, maxFileBytes + MULTIPART_OVERHEAD, DRAIN_BYTES);
  let parsed: FormData;
  try {
    parsed = await new Response(bytes, { headers: { "content-type": type } }).formData();
  } catch {
    throw new MarketplaceError("invalid_input", "The form could not be read");
  }
  const fields: Record<string, string> = {};
  parsed.forEach((value, name) => {
    if (typeof value === "string") fields[name] ??= value;
  });
  const entry = parsed.get(fileField);
  const file = typeof entry === "string" || entry === null ? null : entry;
  if (file !== null && file.size > maxFileBytes) throw new MarketplaceError("payload_too_large");
  return { fields, file };
}

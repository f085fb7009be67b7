import { type Actor, invalidField, MarketplaceError } from "@psm/core";
import type { UploadedFile } from "@psm/host";
import * as v from "valibot";

/**
 * The arguments of draft_listing_from_document: what POST /api/parse-pdf
 * takes as a multipart file, as JSON (tool calls carry no files).
 */
export const DocumentArguments = v.object({
  filename: v.pipe(
    v.string(),
    v.minLength(1),
    v.maxLength(255),
    v.description("The file's name, e.g. brochure.pdf; informative only: the type is read from the bytes."),
  ),
  content_base64: v.pipe(
    v.string(),
    v.minLength(1),
    v.description(
      "The file's bytes in standard base64 (RFC 4648): a PDF, a PNG, JPEG or WebP image (read by OCR) or UTF-8 text.",
    ),
  ),
  content_type: v.optional(
    v.pipe(
      v.string(),
      v.maxLength(255),
      v.description("The media type the file claims (application/pdf); informative only."),
    ),
  ),
});

// One character class, no nested repetition: a regex that backtracks over groups overflows on megabytes.
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * The file of draft_listing_from_document's arguments, as the upload operation's handler takes
 * it from a multipart body. `maxBytes` is the upload limit (413 past it), checked before
 * anything is decoded, so an oversized file is never held twice.
 */
export function fileFromArguments(
  actor: Actor,
  args: Record<string, unknown>,
  maxBytes: number,
): UploadedFile {
  // As the upload route: an anonymous caller is told 401 before the server holds the file.
  if (actor.kind !== "user") throw new MarketplaceError("unauthenticated");
  const parsed = v.safeParse(DocumentArguments, args);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const path = v.getDotPath(issue) ?? "arguments";
    throw invalidField(path, issue.input === undefined ? "is required" : issue.message);
  }
  const { filename, content_base64: encoded, content_type: type } = parsed.output;
  const text = encoded.replace(/\s+/g, "");
  if (text.length % 4 !== 0 || !BASE64.test(text)) {
    throw invalidField("content_base64", "must be standard base64");
  }
  const padding = text.endsWith("==") ? 2 : text.endsWith("=") ? 1 : 0;
  if ((text.length / 4) * 3 - padding > maxBytes) throw new MarketplaceError("payload_too_large");
  return { bytes: new Uint8Array(Buffer.from(text, "base64")), filename, type };
}

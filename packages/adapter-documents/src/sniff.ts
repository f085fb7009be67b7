import type { DocumentKind } from "@psm/core";

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0) =>
  signature.every((byte, i) => bytes[offset + i] === byte);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/**
 * The document's kind from its first bytes, never from a name or declared type: PDF (`%PDF-`),
 * PNG, JPEG, WebP (`RIFF....WEBP`); anything else is a candidate for UTF-8 text.
 */
export function sniffKind(bytes: Uint8Array): DocumentKind {
  if (startsWith(bytes, ascii("%PDF-"))) return "pdf";
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "jpeg";
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "webp";
  return "text";
}

/** Names well-known binary formats that are not accepted, so the error can say what was sent. */
export function knownBinaryFormat(bytes: Uint8Array): string | null {
  if (startsWith(bytes, ascii("PK\u0003\u0004")))
    return "a ZIP archive (Word, Excel and OpenDocument files are ZIP archives)";
  if (startsWith(bytes, ascii("GIF8"))) return "a GIF image";
  if (startsWith(bytes, ascii("II*\u0000")) || startsWith(bytes, ascii("MM\u0000*"))) return "a TIFF image";
  if (startsWith(bytes, ascii("BM"))) return "a BMP image";
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0])) return "a legacy Office document";
  if (startsWith(bytes, [0x1f, 0x8b])) return "a gzip archive";
  if (startsWith(bytes, [0xff, 0xfe]) || startsWith(bytes, [0xfe, 0xff])) return "UTF-16 text (send UTF-8)";
  return null;
}

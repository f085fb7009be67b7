import { MarketplaceError } from "@psm/core";
import { knownBinaryFormat } from "./sniff.js";

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/**
 * Decodes an upload that was not recognised as PDF or image as UTF-8 text (a BOM is allowed and
 * dropped). Refuses, with `unsupported_document`, invalid UTF-8 and binary data: any NUL byte,
 * or control characters in more than 1% of the text.
 */
export function decodeText(bytes: Uint8Array): string {
  const binary = knownBinaryFormat(bytes);
  if (binary !== null)
    throw new MarketplaceError("unsupported_document", `Unsupported document: the file is ${binary}`);
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    throw new MarketplaceError(
      "unsupported_document",
      "Unsupported document: not a PDF, PNG, JPEG or WebP file, and not valid UTF-8 text",
    );
  }
  let controls = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0) controls = Number.POSITIVE_INFINITY;
    else if ((code < 32 && code !== 9 && code !== 10 && code !== 12 && code !== 13) || code === 127)
      controls++;
  }
  if (controls > text.length / 100) {
    throw new MarketplaceError(
      "unsupported_document",
      "Unsupported document: the file holds binary data, not text",
    );
  }
  if (text.trim().length === 0)
    throw new MarketplaceError("unsupported_document", "The document contains no text");
  return text;
}

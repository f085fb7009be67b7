import { MarketplaceError } from "@psm/core";

/** The file part of an upload: its bytes (a view into the body, not a copy), name and declared type. */
export interface UploadedFile {
  bytes: Uint8Array;
  filename: string;
  type: string | undefined;
}

const MAX_PARTS = 32;
const MAX_HEADER_BYTES = 8 * 1024;
const malformed = () => new MarketplaceError("invalid_input", "Malformed multipart body");

/** The boundary of a `multipart/form-data` Content-Type, or null. */
export function multipartBoundary(contentType: string): string | null {
  if (!/^multipart\/form-data\s*;/i.test(contentType)) return null;
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i.exec(contentType.slice(0, 512));
  return match?.[1] ?? match?.[2] ?? null;
}

function parameter(header: string, name: string): string | null {
  const match = new RegExp(`;\\s*${name}="([^"]{0,1024})"|;\\s*${name}=([^\\s;"]{1,1024})`, "i").exec(header);
  return match?.[1] ?? match?.[2] ?? null;
}

/**
 * Finds the part named `field` in a multipart body, in one forward pass of `indexOf` (linear,
 * and a few milliseconds for 10 MiB): the general form parser builds an entry for every part,
 * which a body of a million tiny parts turns into a second of work on the event loop. Answers
 * the part when it carries a file name (a file), null when the field is absent or a plain value.
 */
export function findFilePart(body: Uint8Array, boundary: string, field: string): UploadedFile | null {
  const buffer = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const delimiter = Buffer.from(`--${boundary}`, "latin1");
  let at = buffer.indexOf(delimiter);
  if (at < 0) throw malformed();
  for (let parts = 0; parts < MAX_PARTS; parts++) {
    at += delimiter.length;
    if (buffer[at] === 0x2d && buffer[at + 1] === 0x2d) return null; // the closing delimiter
    if (buffer[at] !== 0x0d || buffer[at + 1] !== 0x0a) throw malformed();
    // Searched within its bound only, so a part without a header end costs 8 KiB, not the body.
    const window = buffer.subarray(at, at + MAX_HEADER_BYTES).indexOf("\r\n\r\n", 0, "latin1");
    if (window < 0) throw malformed();
    const headersEnd = at + window;
    const headers = buffer.toString("utf8", at + 2, headersEnd).split("\r\n");
    const start = headersEnd + 4;
    const end = buffer.indexOf(Buffer.concat([Buffer.from("\r\n", "latin1"), delimiter]), start);
    if (end < 0) throw malformed();
    const disposition = headers.find((h) => /^content-disposition\s*:/i.test(h)) ?? "";
    if (
      /^content-disposition\s*:\s*form-data/i.test(disposition) &&
      parameter(disposition, "name") === field
    ) {
      const filename = parameter(disposition, "filename");
      if (filename === null) return null;
      const type = headers.find((h) => /^content-type\s*:/i.test(h))?.replace(/^content-type\s*:\s*/i, "");
      return { bytes: body.subarray(start, end), filename, type: type === "" ? undefined : type };
    }
    at = end + 2;
  }
  throw new MarketplaceError("invalid_input", `Malformed multipart body: more than ${MAX_PARTS} parts`);
}

import { constants, inflateSync } from "node:zlib";

/** How far back from a `stream` keyword its dictionary is looked for. */
const MAX_DICT_CHARS = 4096;

/** The number of FlateDecode filters a stream dictionary applies first, in a row. */
function flateLayers(dict: string): number {
  const filter = /\/Filter\s*(\[[^\]]*\]|\/[A-Za-z0-9]+)/.exec(dict)?.[1] ?? "";
  let layers = 0;
  for (const name of filter.match(/\/[A-Za-z0-9]+/g) ?? []) {
    if (name !== "/FlateDecode" && name !== "/Fl") break;
    layers++;
  }
  return layers;
}

/**
 * True when the PDF's Flate-compressed streams, images aside, inflate past `budget` bytes in
 * total: a decompression bomb. pdf.js inflates streams on the event loop without a bound, so
 * they are measured first with zlib's own output limit, which stops at the budget. Images
 * are left to pdf.js, which decodes no more than their declared (pixel-bounded) size.
 */
export function exceedsInflateBudget(bytes: Uint8Array, budget: number): boolean {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
  let remaining = budget;
  let at = text.indexOf("stream");
  while (at >= 0) {
    const eol = /^stream(\r\n|\n|\r)/.exec(text.slice(at, at + 8));
    if (eol === null || text.slice(at - 3, at) === "end") {
      at = text.indexOf("stream", at + 6);
      continue;
    }
    const objStart = text.lastIndexOf("obj", at);
    const dict = text.slice(Math.max(objStart, at - MAX_DICT_CHARS, 0), at);
    const start = at + (eol[0]?.length ?? 7);
    const found = text.indexOf("endstream", start);
    const end = found < 0 ? text.length : found;
    const layers = /\/Subtype\s*\/Image\b/.test(dict) ? 0 : flateLayers(dict);
    let data: Uint8Array = bytes.subarray(start, end);
    for (let i = 0; i < layers; i++) {
      try {
        data = inflateSync(data, { maxOutputLength: remaining + 1, finishFlush: constants.Z_SYNC_FLUSH });
      } catch (error) {
        if (error instanceof RangeError) return true; // ERR_BUFFER_TOO_LARGE: over the budget
        break; // damaged data: pdf.js decides what to make of it
      }
      remaining -= data.byteLength;
      if (remaining < 0) return true;
    }
    at = text.indexOf("stream", end + 9);
  }
  return false;
}

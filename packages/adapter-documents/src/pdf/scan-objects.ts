import { isCommand, type LexContext, type PdfDict, type PdfValue, readValue, skipSpace } from "./lexer.js";
import { createObjectIndex, type ObjectIndex, streamEntries } from "./object-index.js";

/** A stream found in the file: its dictionary (null when no object header was read) and where its data lies. */
export interface FoundStream {
  dict: PdfDict | null;
  /** First byte of the data: after the line break that follows `stream`, as pdf.js reads it. */
  dataStart: number;
  /** Where the next `endstream` starts (the file's end when there is none). */
  firstEnd: number;
}

/** The file's streams and small objects, read in one forward pass. */
export interface ScannedFile {
  streams: FoundStream[];
  index: ObjectIndex;
}

const ENDSTREAM = Buffer.from("endstream", "latin1");

const isInt = (v: PdfValue | undefined): v is number =>
  typeof v === "number" && Number.isInteger(v) && v >= 0;

/**
 * Finds the next occurrence of `needle` at or after `from`, remembering the last answer: the scan
 * asks with growing positions, so every byte is searched once in all (a file of a million
 * `stream` keywords and no `endstream` must not be searched a million times to its end).
 */
function forwardSearch(bytes: Uint8Array, needle: Buffer): (from: number) => number {
  const haystack = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let askedFrom = -1;
  let found = -1;
  return (from) => {
    // The last answer still holds when nothing lies between `from` and it.
    if (askedFrom >= 0 && from >= askedFrom && (found < 0 || found >= from)) return found;
    askedFrom = from;
    found = haystack.indexOf(needle, from);
    return found;
  };
}

/** Where stream data starts: after the end of the line holding `stream` (pdf.js's skipToNextLine). */
function lineAfter(bytes: Uint8Array, pos: number, nextBreak: (from: number) => number): number {
  const at = nextBreak(pos);
  if (at < 0) return bytes.length;
  return bytes[at] === 0x0d && bytes[at + 1] === 0x0a ? at + 2 : at + 1;
}

function breakSearch(bytes: Uint8Array) {
  const lf = forwardSearch(bytes, Buffer.from("\n"));
  const cr = forwardSearch(bytes, Buffer.from("\r"));
  return (from: number) => {
    const a = lf(from);
    const b = cr(from);
    return a < 0 ? b : b < 0 ? a : Math.min(a, b);
  };
}

/**
 * Reads the file forwards once: every `num gen obj` header's value, and after it, when the
 * keyword `stream` follows, where the stream's data lies. Outside objects only keywords are read
 * (a stray `(` or `[` between objects cannot swallow the rest of the file). A `stream` keyword
 * with no object header before it is kept too, without a dictionary.
 */
export function scanObjects(ctx: LexContext): ScannedFile {
  const { bytes } = ctx;
  const index = createObjectIndex();
  const streams: FoundStream[] = [];
  const nextEnd = forwardSearch(bytes, ENDSTREAM);
  const nextBreak = breakSearch(bytes);
  const openStream = (dict: PdfDict | null, keywordEnd: number) => {
    const dataStart = lineAfter(bytes, keywordEnd, nextBreak);
    const end = nextEnd(dataStart);
    const firstEnd = end < 0 ? bytes.length : end;
    streams.push({ dict, dataStart, firstEnd });
    return end < 0 ? bytes.length : end + ENDSTREAM.length;
  };
  let pos = 0;
  let before: PdfValue | undefined;
  let last: PdfValue | undefined;
  while (pos < bytes.length) {
    pos = skipSpace(ctx, pos);
    if (pos >= bytes.length) break;
    const c = bytes[pos] ?? 0;
    // Between objects: strings, arrays and dictionaries are not read as values (the trailer's
    // dictionary needs no reading), so a malformed one cannot hide what follows it.
    if (
      c === 0x28 ||
      c === 0x29 ||
      c === 0x5b ||
      c === 0x5d ||
      c === 0x3c ||
      c === 0x3e ||
      c === 0x7b ||
      c === 0x7d
    ) {
      pos++;
      before = last = undefined;
      continue;
    }
    const token = readValue(ctx, pos);
    if (isCommand(token.value, "obj") && isInt(before) && isInt(last)) {
      const num = before;
      const value = readValue(ctx, token.end);
      const next = readValue(ctx, value.end);
      if (isCommand(next.value, "stream")) pos = openStream(streamEntries(value.value), next.end);
      else {
        index.define(num, value.value);
        pos = value.end;
      }
      before = last = undefined;
      continue;
    }
    if (isCommand(token.value, "stream")) {
      pos = openStream(null, token.end);
      before = last = undefined;
      continue;
    }
    before = last;
    last = token.value;
    pos = token.end;
  }
  return { streams, index };
}

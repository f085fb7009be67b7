/**
 * A bounded PDF tokenizer and value reader for the inflate guard: it reads what a stream
 * dictionary can say (names with `#xx` escapes, numbers, references, arrays, dictionaries) and
 * skips what it cannot (strings, comments). Every byte it consumes is charged to a shared work
 * counter, so a hostile file costs time proportional to its size, never more.
 */

/** A PDF name, `#xx` escapes decoded (`/F#6cateDecode` is `FlateDecode`). */
export interface PdfName {
  kind: "name";
  name: string;
}
/** An indirect reference `num gen R`. */
export interface PdfRef {
  kind: "ref";
  num: number;
  gen: number;
}
/** A dictionary; a repeated key keeps its last value, as pdf.js does. */
export interface PdfDict {
  kind: "dict";
  entries: Map<string, PdfValue>;
}
/** A keyword (`obj`, `stream`, `R`, ...) or anything else that is not a value. */
export interface PdfCommand {
  kind: "cmd";
  cmd: string;
}
/** What the guard keeps of an object; strings are read past and kept as `string`. */
export type PdfValue = number | PdfName | PdfRef | PdfDict | PdfCommand | "string" | PdfValue[];

/** The bytes being read and the work spent so far. */
export interface LexContext {
  bytes: Uint8Array;
  /** Bytes consumed so far, across every read of this context. */
  work: number;
  /** Past this, reading stops with a WorkExceeded error: the file is too tangled to check. */
  maxWork: number;
}

/** Thrown when a file needs more reading than its size justifies. */
export class WorkExceeded extends Error {
  override readonly name = "WorkExceeded";
}

// Values kept of a container, at most: stream dictionaries hold a handful of entries.
const MAX_ITEMS = 256;
const MAX_DEPTH = 32;
const MAX_NAME = 127;

const isWhite = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x0c || c === 0;
const isDelimiter = (c: number) =>
  c === 0x28 ||
  c === 0x29 ||
  c === 0x3c ||
  c === 0x3e ||
  c === 0x5b ||
  c === 0x5d ||
  c === 0x7b ||
  c === 0x7d ||
  c === 0x2f ||
  c === 0x25;
const isRegular = (c: number) => !isWhite(c) && !isDelimiter(c);
const hex = (c: number) =>
  c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x41 && c <= 0x46 ? c - 55 : c >= 0x61 && c <= 0x66 ? c - 87 : -1;

function charge(ctx: LexContext, from: number, to: number): void {
  ctx.work += Math.max(1, to - from);
  if (ctx.work > ctx.maxWork) throw new WorkExceeded("the PDF needs more reading than its size justifies");
}

/** The position of the next token: whitespace and `%` comments skipped. */
export function skipSpace(ctx: LexContext, pos: number): number {
  const { bytes } = ctx;
  const start = pos;
  while (pos < bytes.length) {
    const c = bytes[pos] ?? 0;
    if (isWhite(c)) pos++;
    else if (c === 0x25) {
      while (pos < bytes.length && bytes[pos] !== 0x0a && bytes[pos] !== 0x0d) pos++;
    } else break;
  }
  charge(ctx, start, pos);
  return pos;
}

function readName(ctx: LexContext, pos: number): { value: PdfName; end: number } {
  const { bytes } = ctx;
  let end = pos + 1;
  const out: number[] = [];
  while (end < bytes.length && isRegular(bytes[end] ?? 0)) {
    const c = bytes[end] ?? 0;
    const hi = c === 0x23 ? hex(bytes[end + 1] ?? 0) : -1;
    const lo = c === 0x23 ? hex(bytes[end + 2] ?? 0) : -1;
    if (hi >= 0 && lo >= 0) {
      if (out.length < MAX_NAME) out.push(hi * 16 + lo);
      end += 3;
    } else {
      if (out.length < MAX_NAME) out.push(c);
      end++;
    }
  }
  charge(ctx, pos, end);
  return { value: { kind: "name", name: String.fromCharCode(...out) }, end };
}

/** The end of a literal string starting at `(`: nested parentheses balanced, escapes skipped. */
function skipLiteral(ctx: LexContext, pos: number): number {
  const { bytes } = ctx;
  let depth = 0;
  let end = pos;
  for (; end < bytes.length; end++) {
    const c = bytes[end];
    if (c === 0x5c) end++;
    else if (c === 0x28) depth++;
    else if (c === 0x29 && --depth === 0) {
      end++;
      break;
    }
  }
  charge(ctx, pos, end);
  return Math.min(end, bytes.length);
}

function skipHex(ctx: LexContext, pos: number): number {
  const close = ctx.bytes.indexOf(0x3e, pos);
  const end = close < 0 ? ctx.bytes.length : close + 1;
  charge(ctx, pos, end);
  return end;
}

/** One token at `pos` (after skipSpace): a value that needs no look-ahead, or a command. */
function readAtom(ctx: LexContext, pos: number): { value: PdfValue; end: number } {
  const { bytes } = ctx;
  const c = bytes[pos] ?? 0;
  if (c === 0x2f) return readName(ctx, pos);
  if (c === 0x28) return { value: "string", end: skipLiteral(ctx, pos) };
  if (c === 0x3c && bytes[pos + 1] !== 0x3c) return { value: "string", end: skipHex(ctx, pos) };
  const two = c === 0x3c || c === 0x3e ? bytes[pos + 1] === c : false;
  if (two) return { value: { kind: "cmd", cmd: c === 0x3c ? "<<" : ">>" }, end: pos + 2 };
  if (isDelimiter(c)) return { value: { kind: "cmd", cmd: String.fromCharCode(c) }, end: pos + 1 };
  let end = pos;
  while (end < bytes.length && isRegular(bytes[end] ?? 0)) end++;
  charge(ctx, pos, end);
  const text = Buffer.from(bytes.buffer, bytes.byteOffset + pos, Math.min(end - pos, 64)).toString("latin1");
  const number = /^[+-]?(\d+\.?\d*|\.\d+)$/.test(text) ? Number(text) : Number.NaN;
  return { value: Number.isFinite(number) ? number : { kind: "cmd", cmd: text }, end };
}

const isInt = (v: PdfValue | undefined): v is number =>
  typeof v === "number" && Number.isInteger(v) && v >= 0;

/**
 * Reads one value at `pos`, references (`5 0 R`) included. Containers keep at most 256 items
 * and nest at most 32 deep; deeper or longer ones are read past. Returns the position after it.
 */
export function readValue(ctx: LexContext, pos: number, depth = 0): { value: PdfValue; end: number } {
  const start = skipSpace(ctx, pos);
  const atom = readAtom(ctx, start);
  const { value } = atom;
  if (isInt(value)) {
    // `num gen R` is one value: look two tokens ahead.
    const genAt = skipSpace(ctx, atom.end);
    const gen = readAtom(ctx, genAt);
    if (isInt(gen.value)) {
      const rAt = skipSpace(ctx, gen.end);
      const r = readAtom(ctx, rAt);
      if (typeof r.value === "object" && "cmd" in r.value && r.value.cmd === "R")
        return { value: { kind: "ref", num: value, gen: gen.value }, end: r.end };
    }
    return atom;
  }
  if (typeof value !== "object" || !("cmd" in value)) return atom;
  if (value.cmd === "[") return readArray(ctx, atom.end, depth);
  if (value.cmd === "<<") return readDict(ctx, atom.end, depth);
  return atom;
}

const isCmd = (v: PdfValue, cmd: string) => typeof v === "object" && "cmd" in v && v.cmd === cmd;

function readArray(ctx: LexContext, pos: number, depth: number): { value: PdfValue; end: number } {
  const items: PdfValue[] = [];
  let at = pos;
  while (at < ctx.bytes.length) {
    const next = readValue(ctx, at, depth + 1);
    if (isCmd(next.value, "]")) return { value: items, end: next.end };
    // A stray `>>` or keyword ends a damaged array, as it would end pdf.js's reading of it.
    if (isCmd(next.value, ">>") || isCmd(next.value, "obj") || isCmd(next.value, "endobj"))
      return { value: items, end: at };
    if (depth < MAX_DEPTH && items.length < MAX_ITEMS) items.push(next.value);
    at = next.end;
  }
  return { value: items, end: ctx.bytes.length };
}

function readDict(ctx: LexContext, pos: number, depth: number): { value: PdfValue; end: number } {
  const entries = new Map<string, PdfValue>();
  let at = pos;
  while (at < ctx.bytes.length) {
    const key = readValue(ctx, at, depth + 1);
    if (isCmd(key.value, ">>")) return { value: { kind: "dict", entries }, end: key.end };
    if (isCmd(key.value, "obj") || isCmd(key.value, "endobj") || isCmd(key.value, "stream"))
      return { value: { kind: "dict", entries }, end: at };
    if (typeof key.value !== "object" || !("name" in key.value)) {
      at = key.end; // not a key: pdf.js skips it too
      continue;
    }
    const item = readValue(ctx, key.end, depth + 1);
    if (isCmd(item.value, ">>")) return { value: { kind: "dict", entries }, end: item.end };
    if (depth < MAX_DEPTH && (entries.size < MAX_ITEMS || entries.has(key.value.name)))
      entries.set(key.value.name, item.value);
    at = item.end;
  }
  return { value: { kind: "dict", entries }, end: ctx.bytes.length };
}

/** True when `value` is the keyword `cmd`. */
export function isCommand(value: PdfValue, cmd: string): boolean {
  return isCmd(value, cmd);
}

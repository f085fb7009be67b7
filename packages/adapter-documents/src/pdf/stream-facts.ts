import { type LexContext, type PdfDict, type PdfValue, readValue, skipSpace } from "./lexer.js";
import type { ObjectIndex } from "./object-index.js";
import type { FoundStream } from "./scan-objects.js";

const ints = (values: PdfValue[]) =>
  values.filter((v): v is number => typeof v === "number" && Number.isInteger(v) && v >= 0);
const names = (values: PdfValue[]) =>
  values.flatMap((v) => (typeof v === "object" && !Array.isArray(v) && v.kind === "name" ? [v.name] : []));

/** True when the dictionary makes the stream an object stream (`/Type /ObjStm`). */
export function isObjectStream(dict: PdfDict | null, index: ObjectIndex): boolean {
  return dict !== null && names(index.resolve(dict.entries.get("Type"))).includes("ObjStm");
}

const ENDSTREAM = [0x65, 0x6e, 0x64, 0x73, 0x74, 0x72, 0x65, 0x61, 0x6d];

/**
 * Where the stream's data ends as pdf.js reads it: at `dataStart + Length` when `endstream`
 * follows there, else at the first `endstream`. A length with several definitions counts the
 * longest that fits: decoding more input never yields less output.
 */
export function streamEnd(ctx: LexContext, stream: FoundStream, index: ObjectIndex): number {
  let end = stream.firstEnd;
  if (stream.dict === null) return end;
  for (const length of ints(index.resolve(stream.dict.entries.get("Length")))) {
    const at = stream.dataStart + length;
    if (at <= end || at > ctx.bytes.length) continue;
    const next = skipSpace(ctx, at);
    if (ENDSTREAM.every((byte, i) => ctx.bytes[next + i] === byte)) end = at;
  }
  return end;
}

const COMPONENTS: Record<string, number> = {
  DeviceGray: 1,
  G: 1,
  CalGray: 1,
  DeviceRGB: 3,
  RGB: 3,
  CalRGB: 3,
  Lab: 3,
  DeviceCMYK: 4,
  CMYK: 4,
};

/**
 * For an image pdf.js would decode (declared size within `maxPixels`), the most its data can
 * decode to when honest: rows × row bytes, a predictor byte a row, and some slack. Null for
 * anything else, whose output the main budget pays.
 */
export function imageAllowance(dict: PdfDict | null, index: ObjectIndex, maxPixels: number): number | null {
  if (dict === null) return null;
  const subtype = names(index.resolve(dict.entries.get("Subtype")));
  if (subtype.length === 0 || subtype.some((s) => s !== "Image")) return null;
  const width = Math.max(0, ...ints(index.resolve(dict.entries.get("Width"))));
  const height = Math.max(0, ...ints(index.resolve(dict.entries.get("Height"))));
  if (width === 0 || height === 0 || width * height > maxPixels) return null;
  const isTrue = (v: PdfValue) =>
    typeof v === "object" && !Array.isArray(v) && v.kind === "cmd" && v.cmd === "true";
  const mask = index.resolve(dict.entries.get("ImageMask")).some(isTrue);
  const depths = ints(index.resolve(dict.entries.get("BitsPerComponent")));
  const bits = mask ? 1 : depths.length === 0 ? 8 : Math.min(16, Math.max(1, ...depths));
  // Colour spaces given as arrays (ICCBased, Indexed, ...) are counted at four components.
  const space = names(index.resolve(dict.entries.get("ColorSpace")));
  const components = mask ? 1 : space.length === 0 ? 4 : Math.max(...space.map((s) => COMPONENTS[s] ?? 4));
  return Math.ceil((width * components * bits) / 8) * height + height + 65_536;
}

/** The objects an object stream holds, defined into the index: `/N` pairs of number and offset, then the values from `/First`. */
export function readObjectStream(data: Uint8Array, dict: PdfDict, index: ObjectIndex): void {
  const count = Math.max(0, ...ints(index.resolve(dict.entries.get("N"))));
  const first = ints(index.resolve(dict.entries.get("First"))).at(-1) ?? -1;
  if (count === 0 || first < 0 || first >= data.length) return;
  // Every object is read once from its offset; offsets pointing into each other cost more, up to this bound.
  const ctx: LexContext = { bytes: data, work: 0, maxWork: 8 * data.length + 65_536 };
  const header: [number, number][] = [];
  let pos = 0;
  for (let i = 0; i < count && pos < first; i++) {
    const num = readValue(ctx, pos);
    const offset = readValue(ctx, num.end);
    if (typeof num.value !== "number" || typeof offset.value !== "number") break;
    header.push([num.value, offset.value]);
    pos = offset.end;
  }
  for (const [num, offset] of header) {
    if (!Number.isInteger(offset) || offset < 0 || first + offset >= data.length) continue;
    index.define(num, readValue(ctx, first + offset).value);
  }
}

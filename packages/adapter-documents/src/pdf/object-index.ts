import type { PdfDict, PdfValue } from "./lexer.js";

/**
 * The objects the guard may need to resolve a reference in a stream dictionary (a filter, its
 * parameters, a length, an image size): small values only, from the file and from its object
 * streams. An object defined more than once keeps its last four definitions, and every one of
 * them is considered, because which one pdf.js takes depends on the cross-reference table.
 */
export interface ObjectIndex {
  define(num: number, value: PdfValue): void;
  /** Every value `value` may stand for: itself, or each definition of the object it refers to. */
  resolve(value: PdfValue | undefined): PdfValue[];
}

const MAX_DEFINITIONS = 4;
const MAX_SMALL = 16;

const isScalar = (v: PdfValue) =>
  typeof v === "number" || (typeof v === "object" && !Array.isArray(v) && v.kind !== "dict");

/** Names, numbers, references, short arrays of them and short dictionaries of them: what a filter or length can be. */
function small(value: PdfValue): boolean {
  if (Array.isArray(value)) return value.length <= MAX_SMALL && value.every(isScalar);
  if (typeof value === "object" && !Array.isArray(value) && value.kind === "dict")
    return value.entries.size <= MAX_SMALL && [...value.entries.values()].every(isScalar);
  return value !== "string";
}

/** Creates an empty index. */
export function createObjectIndex(): ObjectIndex {
  const objects = new Map<number, PdfValue[]>();
  const resolveDepth = (value: PdfValue | undefined, depth: number): PdfValue[] => {
    if (value === undefined) return [];
    if (typeof value !== "object" || Array.isArray(value) || value.kind !== "ref") return [value];
    if (depth > 3) return [];
    return (objects.get(value.num) ?? [])
      .flatMap((v) => resolveDepth(v, depth + 1))
      .slice(0, MAX_DEFINITIONS);
  };
  return {
    define(num, value) {
      if (!small(value)) return;
      const list = objects.get(num) ?? [];
      list.push(value);
      if (list.length > MAX_DEFINITIONS) list.shift();
      objects.set(num, list);
    },
    resolve: (value) => resolveDepth(value, 0),
  };
}

/** The entries of a stream dictionary the guard reads; everything else is dropped to bound memory. */
const KEPT = new Set([
  "F",
  "Filter",
  "DP",
  "DecodeParms",
  "Length",
  "Type",
  "Subtype",
  "Width",
  "Height",
  "BitsPerComponent",
  "ColorSpace",
  "ImageMask",
  "N",
  "First",
]);

/** The part of a stream dictionary the guard needs. */
export function streamEntries(value: PdfValue): PdfDict {
  const entries = new Map<string, PdfValue>();
  if (typeof value === "object" && !Array.isArray(value) && value.kind === "dict") {
    for (const [key, v] of value.entries) if (KEPT.has(key)) entries.set(key, v);
  }
  return { kind: "dict", entries };
}

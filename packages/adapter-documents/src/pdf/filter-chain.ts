import type { PdfDict, PdfValue } from "./lexer.js";
import type { ObjectIndex } from "./object-index.js";

/** One decoding step of a stream, in the order pdf.js applies them. */
export type Layer =
  | { kind: "flate" | "lzw"; params: PdfDict | null }
  | { kind: "brotli" | "runlength" | "asciihex" | "ascii85" }
  /** DCT, JPX, JBIG2, CCITT: image codecs, bounded by pdf.js's pixel bound, not decoded here. */
  | { kind: "image" }
  /** Crypt (identity without encryption) and names pdf.js does not know: the bytes pass unchanged. */
  | { kind: "identity" };

// Full names and the abbreviations of inline images, which pdf.js accepts on streams too.
const NAMES: Record<string, Layer["kind"]> = {
  FlateDecode: "flate",
  Fl: "flate",
  LZWDecode: "lzw",
  LZW: "lzw",
  BrotliDecode: "brotli",
  RunLengthDecode: "runlength",
  RL: "runlength",
  ASCIIHexDecode: "asciihex",
  AHx: "asciihex",
  ASCII85Decode: "ascii85",
  A85: "ascii85",
  DCTDecode: "image",
  DCT: "image",
  JPXDecode: "image",
  JPX: "image",
  JBIG2Decode: "image",
  CCITTFaxDecode: "image",
  CCF: "image",
};

const nameOf = (v: PdfValue): string | null =>
  typeof v === "object" && !Array.isArray(v) && v.kind === "name" ? v.name : null;
const dictOf = (v: PdfValue | undefined): PdfDict | null =>
  typeof v === "object" && !Array.isArray(v) && v.kind === "dict" ? v : null;

function layer(name: string, params: PdfDict | null): Layer {
  const kind = NAMES[name] ?? "identity";
  return kind === "flate" || kind === "lzw" ? { kind, params } : ({ kind } as Layer);
}

/** The value of `key`, or of `alternate` when `key` is absent: pdf.js's `dict.get("F", "Filter")`. */
const entry = (dict: PdfDict, key: string, alternate: string) =>
  dict.entries.has(key) ? dict.entries.get(key) : dict.entries.get(alternate);

const MAX_CHAINS = 4;

/**
 * Every filter chain a stream dictionary may mean: `/Filter` (or `/F`) as a name or an array,
 * each directly or through references (an object defined several times gives one chain per
 * definition), with `/DecodeParms` (or `/DP`) beside it. At most four distinct chains.
 */
export function filterChains(dict: PdfDict, index: ObjectIndex): Layer[][] {
  const paramsOf = (value: PdfValue | undefined) => dictOf(index.resolve(value).at(-1));
  const rawParams = index.resolve(entry(dict, "DP", "DecodeParms")).at(-1);
  const chains: Layer[][] = [];
  const seen = new Set<string>();
  const add = (chain: Layer[]) => {
    const key = chain.map((l) => l.kind).join(",");
    if (chains.length < MAX_CHAINS && !seen.has(key)) {
      seen.add(key);
      chains.push(chain);
    }
  };
  for (const filter of index.resolve(entry(dict, "F", "Filter"))) {
    const single = nameOf(filter);
    if (single !== null) add([layer(single, dictOf(rawParams))]);
    if (!Array.isArray(filter)) continue;
    // Each element may itself be a reference with several definitions: take the product, bounded.
    let partial: Layer[][] = [[]];
    for (const [i, element] of filter.entries()) {
      const params = Array.isArray(rawParams) ? paramsOf(rawParams[i]) : null;
      const names = index
        .resolve(element)
        .map(nameOf)
        .filter((n): n is string => n !== null);
      if (names.length === 0) break; // pdf.js stops at a filter that is not a name
      partial = partial
        .flatMap((chain) => names.map((n) => [...chain, layer(n, params)]))
        .slice(0, MAX_CHAINS);
    }
    for (const chain of partial) add(chain);
  }
  return chains;
}

/** The integer a DecodeParms entry holds, or the default. */
export function paramInt(params: PdfDict | null, key: string, fallback: number): number {
  const value = params?.entries.get(key);
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}

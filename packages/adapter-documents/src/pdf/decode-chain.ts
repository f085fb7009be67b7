import { lzwBounded } from "./decode-lzw.js";
import { ascii85, asciiHex, runLengthBounded, unpredict } from "./decode-simple.js";
import { brotliBounded, type Decoded, inflateBounded } from "./decode-zlib.js";
import { type Layer, paramInt } from "./filter-chain.js";

/** What decoding a chain cost: bytes produced by all its layers together, and the final bytes when kept. */
export interface ChainResult {
  /** Bytes produced by every layer (pdf.js holds each layer's output): what the budget pays. */
  produced: number;
  over: boolean;
  output?: Uint8Array;
}

async function decodeLayer(layer: Layer, input: Uint8Array, cap: number, keep: boolean): Promise<Decoded> {
  switch (layer.kind) {
    case "flate":
      return inflateBounded(input, cap, keep);
    case "brotli":
      return brotliBounded(input, cap, keep);
    case "lzw":
      return lzwBounded(input, cap, keep, paramInt(layer.params, "EarlyChange", 1));
    case "runlength":
      return runLengthBounded(input, cap, keep);
    case "asciihex":
      return asciiHex(input, cap, keep);
    case "ascii85":
      return ascii85(input, cap, keep);
    default:
      return { size: 0, over: false, output: input };
  }
}

function predicted(layer: Layer, output: Uint8Array): Uint8Array {
  if (layer.kind !== "flate" && layer.kind !== "lzw") return output;
  const predictor = paramInt(layer.params, "Predictor", 1);
  if (predictor !== 2 && (predictor < 10 || predictor > 15)) return output;
  return unpredict(output, {
    predictor,
    colors: paramInt(layer.params, "Colors", 1),
    bitsPerComponent: paramInt(layer.params, "BitsPerComponent", 8),
    columns: paramInt(layer.params, "Columns", 1),
  });
}

/**
 * Decodes `data` through `chain` as pdf.js would, every layer bounded so that all of them
 * together produce at most `cap` bytes (`over` past it). An image codec ends the measurement
 * (pdf.js decodes images no larger than their declared, pixel-bounded size). The last layer
 * only counts, unless `keep` asks for the bytes (object streams are read afterwards).
 */
export async function decodeChain(
  data: Uint8Array,
  chain: Layer[],
  cap: number,
  keep: boolean,
): Promise<ChainResult> {
  const work = chain.filter((l) => l.kind !== "identity");
  const stop = work.findIndex((l) => l.kind === "image");
  const layers = stop < 0 ? work : work.slice(0, stop);
  let input = data;
  let produced = 0;
  for (const [i, layer] of layers.entries()) {
    const last = i === layers.length - 1;
    const decoded = await decodeLayer(layer, input, cap - produced, keep || !last);
    produced += decoded.size;
    if (decoded.over || produced > cap) return { produced, over: true };
    if (decoded.output === undefined) return { produced, over: false };
    // A predictor shrinks the bytes; undone only when a further layer (or the caller) reads them.
    input = keep || !last ? predicted(layer, decoded.output) : decoded.output;
  }
  return keep ? { produced, over: false, output: input } : { produced, over: false };
}

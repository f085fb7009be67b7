import { MarketplaceError } from "@psm/core";
import { decodeChain } from "./decode-chain.js";
import { flateHeaderOk } from "./decode-zlib.js";
import { filterChains, type Layer } from "./filter-chain.js";
import { type LexContext, WorkExceeded } from "./lexer.js";
import type { ObjectIndex } from "./object-index.js";
import { type FoundStream, scanObjects } from "./scan-objects.js";
import { imageAllowance, isObjectStream, readObjectStream, streamEnd } from "./stream-facts.js";

/** The bounds the guard checks a PDF against. */
export interface InflateBounds {
  /** What the streams that are not images may decode to in total. */
  budget: number;
  /** Images over this many declared pixels are never decoded as images by pdf.js. */
  maxPixels: number;
}

const tooLarge = (budget: number) =>
  new MarketplaceError(
    "payload_too_large",
    `The PDF's compressed content inflates past ${Math.round(budget / 1048576)} MiB; it is not read`,
  );
const tangled = () =>
  new MarketplaceError(
    "unsupported_document",
    "Unsupported document: the PDF's structure is too tangled to check (overlapping or endlessly repeated objects)",
  );

const decodes = (chain: Layer[]) => chain.some((l) => l.kind !== "identity" && l.kind !== "image");

/**
 * Refuses a PDF whose streams would decode past the bounds, before pdf.js reads it (pdf.js
 * decodes every stream it needs in full). One forward pass finds every object and stream;
 * filters are followed however they are written: names or arrays, `#xx`-escaped, abbreviated
 * (`/Fl`), through references, from object streams, in chains of Flate, LZW, Brotli, RunLength,
 * ASCIIHex and ASCII85. Every stream is decoded for real with a hard cap on its output, so the
 * check costs at most the budget in output and time linear in the file, never the bomb's size.
 * Images pdf.js would decode as images are held to their declared size instead (and to four
 * budgets in total). Throws 413 past a bound, 400 for a file too tangled to check.
 */
export async function checkInflateBudget(bytes: Uint8Array, bounds: InflateBounds): Promise<void> {
  // Each byte is read a few times at most (look-ahead, a length check); beyond this, the file is hostile.
  const ctx: LexContext = { bytes, work: 0, maxWork: 16 * bytes.length + 1_000_000 };
  try {
    await check(ctx, bounds);
  } catch (error) {
    if (error instanceof WorkExceeded) throw tangled();
    throw error;
  }
}

async function check(ctx: LexContext, bounds: InflateBounds): Promise<void> {
  const { streams, index } = scanObjects(ctx);
  let remaining = bounds.budget;
  let imagesRemaining = 4 * bounds.budget;
  let spans = 0;
  const span = (stream: FoundStream) => {
    const end = streamEnd(ctx, stream, index);
    spans += end - stream.dataStart;
    // Honest streams never overlap; data read twice or more means crafted overlaps.
    if (spans > 2 * ctx.bytes.length + 1_048_576) throw tangled();
    return ctx.bytes.subarray(stream.dataStart, end);
  };

  // Object streams first: the objects they hold may name other streams' filters and lengths.
  const objectStreams = new Set(streams.filter((s) => isObjectStream(s.dict, index)));
  for (const stream of objectStreams) {
    if (stream.dict === null) continue;
    const data = span(stream);
    let worst = 0;
    for (const chain of chainsOf(stream, data, index)) {
      const result = await decodeChain(data, chain, remaining, true);
      if (result.over) throw tooLarge(bounds.budget);
      worst = Math.max(worst, result.produced);
      readObjectStream(result.output ?? data, stream.dict, index);
    }
    remaining -= worst;
  }

  for (const stream of streams) {
    if (objectStreams.has(stream)) continue;
    const data = ctx.bytes.subarray(stream.dataStart, stream.firstEnd);
    const chains = chainsOf(stream, data, index).filter(decodes);
    if (chains.length === 0) continue; // raw bytes: no larger than the file
    const full = span(stream);
    const allowance = imageAllowance(stream.dict, index, bounds.maxPixels);
    let worst = 0;
    let worstImage = 0;
    for (const chain of chains) {
      if (allowance !== null) {
        const image = await decodeChain(full, chain, Math.min(allowance, imagesRemaining), false);
        if (!image.over) {
          worstImage = Math.max(worstImage, image.produced);
          continue;
        }
        if (allowance > imagesRemaining) throw tooLarge(bounds.budget);
        // Past its declared size the data serves no image: the main budget pays for it.
      }
      const result = await decodeChain(full, chain, remaining, false);
      if (result.over) throw tooLarge(bounds.budget);
      worst = Math.max(worst, result.produced);
    }
    remaining -= worst;
    imagesRemaining -= worstImage;
  }
}

/** The chains of a stream; a stream found without its dictionary is tried as Flate when its header says so. */
function chainsOf(stream: FoundStream, data: Uint8Array, index: ObjectIndex): Layer[][] {
  if (stream.dict !== null) {
    const chains = filterChains(stream.dict, index);
    return chains.length === 0 ? [[]] : chains;
  }
  return flateHeaderOk(data) ? [[{ kind: "flate", params: null }]] : [];
}

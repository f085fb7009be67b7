import { getResolvedPDFJS } from "unpdf";
import { toGray } from "../png-encode.js";
import type { PdfDocument } from "./read-pdf.js";

/** A grayscale bitmap found on a PDF page. */
export interface PageImage {
  width: number;
  height: number;
  gray: Uint8Array;
}

// pdf.js ImageKind: 1 bit per pixel (bit set = white), RGB, RGBA.
const GRAYSCALE_1BPP = 1;

function unpackBits(data: Uint8Array | Uint8ClampedArray, width: number, height: number): Uint8Array | null {
  const rowBytes = Math.ceil(width / 8);
  if (data.length < rowBytes * height) return null;
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const byte = data[y * rowBytes + (x >> 3)] ?? 0;
      out[y * width + x] = byte & (0x80 >> (x & 7)) ? 255 : 0;
    }
  }
  return out;
}

/** Turns a decoded pdf.js image object into grayscale pixels; null for shapes it does not know. */
function toPageImage(image: unknown): PageImage | null {
  if (typeof image !== "object" || image === null) return null;
  const width: unknown = Reflect.get(image, "width");
  const height: unknown = Reflect.get(image, "height");
  const data: unknown = Reflect.get(image, "data");
  if (typeof width !== "number" || typeof height !== "number" || width < 1 || height < 1) return null;
  if (!(data instanceof Uint8Array || data instanceof Uint8ClampedArray)) return null;
  const pixels = width * height;
  if (Reflect.get(image, "kind") === GRAYSCALE_1BPP) {
    const gray = unpackBits(data, width, height);
    return gray === null ? null : { width, height, gray };
  }
  const channels = data.length / pixels;
  if (channels !== 1 && channels !== 3 && channels !== 4) return null;
  return { width, height, gray: toGray(data, pixels, channels) };
}

/**
 * The largest image painted on a page, as grayscale: a scanned page is one big image. pdf.js
 * has already refused to decode images over its `maxImageSize` bound.
 */
export async function largestPageImage(pdf: PdfDocument, pageNumber: number): Promise<PageImage | null> {
  const page = await pdf.getPage(pageNumber);
  const { OPS } = await getResolvedPDFJS();
  const list = await page.getOperatorList();
  let best: PageImage | null = null;
  for (const [i, fn] of list.fnArray.entries()) {
    if (fn !== OPS.paintImageXObject && fn !== OPS.paintInlineImageXObject) continue;
    const arg: unknown = list.argsArray[i]?.[0];
    let image: unknown = arg;
    if (typeof arg === "string") {
      const store = arg.startsWith("g_") ? page.commonObjs : page.objs;
      image = await new Promise((resolve) => store.get(arg, resolve));
    }
    const found = toPageImage(image);
    if (found !== null && (best === null || found.width * found.height > best.width * best.height))
      best = found;
  }
  return best;
}

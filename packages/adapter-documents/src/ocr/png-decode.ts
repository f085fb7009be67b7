import { createInflate } from "node:zlib";
import { MarketplaceError } from "@psm/core";
import { createDownscaler, type GrayImage } from "./downscale.js";

const corrupt = () => new MarketplaceError("unsupported_document", "The image could not be decoded");
const u32 = (b: Uint8Array, i: number) =>
  (((b[i] ?? 0) << 24) | ((b[i + 1] ?? 0) << 16) | ((b[i + 2] ?? 0) << 8) | (b[i + 3] ?? 0)) >>> 0;
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
/** Adam7: each pass's first column and row, and its steps. */
export const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

interface Header {
  width: number;
  height: number;
  depth: number;
  colour: number;
  interlaced: boolean;
  palette: Uint8Array;
  alpha: Uint8Array;
  data: Uint8Array[];
}

function chunks(png: Uint8Array): Header {
  const header: Header = {
    width: 0,
    height: 0,
    depth: 0,
    colour: 0,
    interlaced: false,
    palette: new Uint8Array(0),
    alpha: new Uint8Array(0),
    data: [],
  };
  // Chunks are walked by their lengths: one step per chunk.
  for (let i = 8; i + 8 <= png.length; ) {
    const length = u32(png, i);
    const type = String.fromCharCode(...png.subarray(i + 4, i + 8));
    const body = png.subarray(i + 8, i + 8 + length);
    if (body.length !== length) throw corrupt();
    if (type === "IHDR") {
      Object.assign(header, {
        width: u32(body, 0),
        height: u32(body, 4),
        depth: body[8],
        colour: body[9],
        interlaced: body[12] === 1,
      });
    } else if (type === "PLTE") header.palette = body;
    else if (type === "tRNS") header.alpha = body;
    else if (type === "IDAT") header.data.push(body);
    else if (type === "IEND") break;
    i += 12 + length;
  }
  if (CHANNELS[header.colour] === undefined || ![1, 2, 4, 8, 16].includes(header.depth)) throw corrupt();
  return header;
}

/** The gray value (alpha composited on white) of each pixel of one unfiltered row. */
function rowToGray(
  h: Header,
  line: Uint8Array,
  count: number,
  emit: (i: number, value: number) => void,
): void {
  const channels = CHANNELS[h.colour] ?? 1;
  const max = (1 << Math.min(h.depth, 8)) - 1;
  const sample = (i: number, c: number) => {
    if (h.depth === 16) return line[(i * channels + c) * 2] ?? 0;
    if (h.depth === 8) return line[i * channels + c] ?? 0;
    const bit = (i * channels + c) * h.depth;
    return ((line[bit >> 3] ?? 0) >> (8 - h.depth - (bit & 7))) & max;
  };
  const luma = (r: number, g: number, b: number) => 0.299 * r + 0.587 * g + 0.114 * b;
  const over = (v: number, a: number) => (v * a + 255 * (255 - a)) / 255;
  for (let i = 0; i < count; i++) {
    if (h.colour === 3) {
      const p = sample(i, 0);
      const v = luma(h.palette[p * 3] ?? 0, h.palette[p * 3 + 1] ?? 0, h.palette[p * 3 + 2] ?? 0);
      emit(i, over(v, h.alpha[p] ?? 255));
    } else {
      const scale = 255 / max;
      const v = channels >= 3 ? luma(sample(i, 0), sample(i, 1), sample(i, 2)) * scale : sample(i, 0) * scale;
      const a = channels === 2 || channels === 4 ? sample(i, channels - 1) * scale : 255;
      emit(i, over(v, a));
    }
  }
}

function unfilter(filter: number, line: Uint8Array, prev: Uint8Array, bpp: number): void {
  for (let i = 0; i < line.length; i++) {
    const a = i >= bpp ? (line[i - bpp] ?? 0) : 0;
    const b = prev[i] ?? 0;
    const c = i >= bpp ? (prev[i - bpp] ?? 0) : 0;
    const x = line[i] ?? 0;
    if (filter === 1) line[i] = x + a;
    else if (filter === 2) line[i] = x + b;
    else if (filter === 3) line[i] = x + ((a + b) >> 1);
    else if (filter === 4) {
      const p = a + b - c;
      const pa = Math.abs(p - a);
      const pb = Math.abs(p - b);
      const pc = Math.abs(p - c);
      line[i] = x + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
    } else if (filter !== 0) throw corrupt();
  }
}

/**
 * Decodes a PNG into grayscale scaled down to `maxPixels`, one row at a time: the inflated
 * stream is never held whole (a 40-megapixel RGBA image would be 160 MB), only two rows and the
 * output. Every bit depth, colour type and interlacing; data beyond the declared rows is refused.
 */
export async function decodePngGray(png: Uint8Array, maxPixels: number): Promise<GrayImage> {
  const h = chunks(png);
  const channels = CHANNELS[h.colour] ?? 1;
  const bpp = Math.max(1, (channels * h.depth) >> 3);
  const passes = (h.interlaced ? ADAM7 : [[0, 0, 1, 1] as const])
    .map(([x0, y0, dx, dy]) => ({
      x0,
      y0,
      dx,
      dy,
      w: Math.ceil((h.width - x0) / dx),
      rows: Math.ceil((h.height - y0) / dy),
    }))
    .filter((p) => p.w > 0 && p.rows > 0);
  const scaler = createDownscaler(h.width, h.height, maxPixels);
  let pass = 0;
  let row = 0;
  let line = new Uint8Array(0);
  let prev = new Uint8Array(0);
  let filled = -1; // -1: the next byte is a row's filter byte
  let filter = 0;
  const startPass = () => {
    const p = passes[pass];
    if (p === undefined) return;
    line = new Uint8Array(Math.ceil((p.w * channels * h.depth) / 8));
    prev = new Uint8Array(line.length);
  };
  startPass();
  const take = (chunk: Buffer) => {
    for (let i = 0; i < chunk.length; ) {
      const p = passes[pass];
      if (p === undefined) throw corrupt(); // more data than the declared rows
      if (filled < 0) {
        filter = chunk[i++] ?? 0;
        filled = 0;
        continue;
      }
      const n = Math.min(line.length - filled, chunk.length - i);
      line.set(chunk.subarray(i, i + n), filled);
      filled += n;
      i += n;
      if (filled < line.length) continue;
      unfilter(filter, line, prev, bpp);
      const y = p.y0 + row * p.dy;
      rowToGray(h, line, p.w, (k, value) => scaler.add(p.x0 + k * p.dx, y, value));
      [prev, line] = [line, prev];
      filled = -1;
      if (++row === p.rows) {
        row = 0;
        pass++;
        startPass();
      }
    }
  };
  await new Promise<void>((resolve, reject) => {
    const inflate = createInflate();
    inflate.on("data", (chunk: Buffer) => {
      try {
        take(chunk);
      } catch (error) {
        inflate.destroy();
        reject(error);
      }
    });
    inflate.on("error", () => reject(corrupt()));
    inflate.on("end", () => (pass === passes.length ? resolve() : reject(corrupt())));
    for (const part of h.data) inflate.write(part);
    inflate.end();
  });
  return scaler.result();
}

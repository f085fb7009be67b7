import { crc32, deflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { pngChunk } from "../png-encode.js";
import { ADAM7, decodePngGray } from "./png-decode.js";

type Rgba = readonly [number, number, number, number];

/** Samples of one pixel in the colour type, at the bit depth. */
function samples(p: Rgba, colour: number, depth: number, palette: Rgba[]): number[] {
  const max = 2 ** depth - 1;
  const s = (v: number) => Math.round((v / 255) * max);
  if (colour === 3) return [palette.findIndex((q) => q.every((v, i) => v === p[i]))];
  if (colour === 0) return [s(p[0])];
  if (colour === 4) return [s(p[0]), s(p[3])];
  if (colour === 2) return [s(p[0]), s(p[1]), s(p[2])];
  return p.map(s);
}

/** Encodes `pixel(x, y)` as a PNG of any colour type, bit depth and interlacing, cycling through all five filters. */
function encodePng(
  width: number,
  height: number,
  pixel: (x: number, y: number) => Rgba,
  colour: number,
  depth: number,
  interlaced: boolean,
): Uint8Array {
  const palette: Rgba[] = [];
  if (colour === 3)
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++)
        if (!palette.some((q) => q.every((v, i) => v === pixel(x, y)[i]))) palette.push(pixel(x, y));
  const channels = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }[colour] ?? 1;
  const bpp = Math.max(1, (channels * depth) >> 3);
  const rows: number[] = [];
  let filterType = 0;
  for (const [x0, y0, dx, dy] of interlaced ? ADAM7 : [[0, 0, 1, 1] as const]) {
    const w = Math.ceil((width - x0) / dx);
    const h = Math.ceil((height - y0) / dy);
    if (w <= 0 || h <= 0) continue;
    let prev = new Uint8Array(Math.ceil((w * channels * depth) / 8));
    for (let r = 0; r < h; r++) {
      const line = new Uint8Array(prev.length);
      let bit = 0;
      for (let k = 0; k < w; k++) {
        for (const v of samples(pixel(x0 + k * dx, y0 + r * dy), colour, depth, palette)) {
          if (depth === 16) line.set([v >> 8, v & 255], bit >> 3);
          else line[bit >> 3] = (line[bit >> 3] ?? 0) | (v << (8 - depth - (bit & 7)));
          bit += depth;
        }
      }
      const f = filterType++ % 5;
      rows.push(f);
      for (let i = 0; i < line.length; i++) {
        const a = i >= bpp ? (line[i - bpp] ?? 0) : 0;
        const b = prev[i] ?? 0;
        const c = i >= bpp ? (prev[i - bpp] ?? 0) : 0;
        const p = a + b - c;
        const paeth =
          Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c)
            ? a
            : Math.abs(p - b) <= Math.abs(p - c)
              ? b
              : c;
        const predictor = [0, a, b, (a + b) >> 1, paeth][f] ?? 0;
        rows.push(((line[i] ?? 0) - predictor) & 255);
      }
      prev = line;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([depth, colour, 0, 0, interlaced ? 1 : 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", ihdr),
    ...(colour === 3 ? [pngChunk("PLTE", Uint8Array.from(palette.flatMap((p) => [p[0], p[1], p[2]])))] : []),
    pngChunk("IDAT", deflateSync(Uint8Array.from(rows))),
    pngChunk("IEND", new Uint8Array(0)),
  ]);
}

// Black strokes on white with a grey band: what a flyer's pixels look like.
const ink = (x: number, y: number): Rgba =>
  (x * 7 + y * 3) % 11 < 3 ? [0, 0, 0, 255] : y % 5 === 0 ? [136, 136, 136, 255] : [255, 255, 255, 255];
const luma = (p: Rgba) => 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2];

describe("decodePngGray", () => {
  const kinds = [
    [0, 8],
    [0, 16],
    [2, 8],
    [2, 16],
    [3, 8],
    [3, 4],
    [4, 8],
    [6, 8],
    [6, 16],
  ] as const;
  for (const [colour, depth] of kinds) {
    for (const interlaced of [false, true]) {
      it(`reads colour type ${colour} at ${depth} bits${interlaced ? ", interlaced" : ""} as gray`, async () => {
        const png = encodePng(37, 23, ink, colour, depth, interlaced);
        const image = await decodePngGray(png, Number.POSITIVE_INFINITY);
        expect([image.width, image.height]).toEqual([37, 23]);
        const wrong = [...image.gray].filter(
          (v, i) => Math.abs(v - luma(ink(i % 37, Math.floor(i / 37)))) > 2,
        );
        expect(wrong).toEqual([]);
      });
    }
  }

  it("reads 1-bit gray (black and white scans)", async () => {
    const bw = (x: number, y: number): Rgba => ((x + y) % 3 === 0 ? [0, 0, 0, 255] : [255, 255, 255, 255]);
    const image = await decodePngGray(encodePng(19, 9, bw, 0, 1, false), Number.POSITIVE_INFINITY);
    expect([...image.gray]).toEqual(
      Array.from({ length: 19 * 9 }, (_, i) => luma(bw(i % 19, Math.floor(i / 19)))),
    );
  });

  it("scales down to the pixel budget while it decodes, averaging each block", async () => {
    const image = await decodePngGray(encodePng(400, 300, ink, 2, 8, true), 10_000);
    expect(image.width * image.height).toBeLessThanOrEqual(10_000);
    expect(image.width / image.height).toBeCloseTo(400 / 300, 1);
    const mean = (values: Iterable<number>) => [...values].reduce((s, v) => s + v, 0) / [...values].length;
    const source = Array.from({ length: 400 * 300 }, (_, i) => luma(ink(i % 400, Math.floor(i / 400))));
    expect(mean(image.gray)).toBeCloseTo(mean(source), -1);
  });

  it("refuses pixel data beyond the declared rows, and corrupt data, as undecodable (400)", async () => {
    const png = encodePng(8, 8, ink, 0, 8, false);
    const header = Buffer.from(png);
    header.writeUInt32BE(4, 20); // declares half the rows the data holds
    const ihdrCrc = crc32(header.subarray(12, 29)) >>> 0;
    header.writeUInt32BE(ihdrCrc, 29);
    await expect(decodePngGray(header, Number.POSITIVE_INFINITY)).rejects.toMatchObject({
      code: "unsupported_document",
    });
    const broken = Uint8Array.from(png);
    broken.fill(0x55, 41, broken.length - 12);
    await expect(decodePngGray(broken, Number.POSITIVE_INFINITY)).rejects.toMatchObject({
      code: "unsupported_document",
    });
  });
});

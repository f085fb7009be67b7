import { crc32, deflateSync } from "node:zlib";

const SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

/** One PNG chunk: length, type, data and CRC. */
export function pngChunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * Encodes 8-bit grayscale pixels (row-major, one byte a pixel) as a PNG. Used to hand
 * images found in scanned PDFs to OCR, and by the tests to print text into images.
 */
export function encodeGrayPng(width: number, height: number, gray: Uint8Array): Uint8Array {
  if (gray.length !== width * height) throw new RangeError("pixel buffer does not match the dimensions");
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // colour type: grayscale
  // Each scanline starts with filter byte 0 (none); deflate does the compressing.
  const raw = Buffer.alloc((width + 1) * height);
  for (let y = 0; y < height; y++) {
    raw.set(gray.subarray(y * width, (y + 1) * width), y * (width + 1) + 1);
  }
  return Buffer.concat([
    SIGNATURE,
    pngChunk("IHDR", ihdr),
    pngChunk("IDAT", deflateSync(raw, { level: 6 })),
    pngChunk("IEND", new Uint8Array(0)),
  ]);
}

/** Converts 1, 3 or 4 channel pixels to grayscale (Rec. 601 luma; alpha composited on white). */
export function toGray(
  data: Uint8Array | Uint8ClampedArray,
  pixels: number,
  channels: 1 | 3 | 4,
): Uint8Array {
  if (channels === 1) return Uint8Array.from(data.subarray(0, pixels));
  const out = new Uint8Array(pixels);
  for (let i = 0; i < pixels; i++) {
    const o = i * channels;
    const luma = 0.299 * (data[o] ?? 0) + 0.587 * (data[o + 1] ?? 0) + 0.114 * (data[o + 2] ?? 0);
    const alpha = channels === 4 ? (data[o + 3] ?? 255) / 255 : 1;
    out[i] = Math.round(luma * alpha + 255 * (1 - alpha));
  }
  return out;
}

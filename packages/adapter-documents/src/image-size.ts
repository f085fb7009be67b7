import type { DocumentKind } from "@psm/core";

/** Pixel dimensions an image declares in its header. */
export interface ImageSize {
  width: number;
  height: number;
  /** Colour components a JPEG's frame declares (1 gray, 3 YCbCr or RGB, 4 CMYK); absent for other types. */
  components?: number;
}

const u16be = (b: Uint8Array, i: number) => ((b[i] ?? 0) << 8) | (b[i + 1] ?? 0);
const u16le = (b: Uint8Array, i: number) => (b[i] ?? 0) | ((b[i + 1] ?? 0) << 8);
const u24le = (b: Uint8Array, i: number) => u16le(b, i) | ((b[i + 2] ?? 0) << 16);
const u32be = (b: Uint8Array, i: number) => u16be(b, i) * 65536 + u16be(b, i + 2);
const tag = (b: Uint8Array, i: number) => String.fromCharCode(...b.subarray(i, i + 4));

function png(b: Uint8Array): ImageSize | null {
  // The first chunk must be IHDR (length 13) and holds width and height.
  if (b.length < 24 || u32be(b, 8) !== 13 || tag(b, 12) !== "IHDR") return null;
  return { width: u32be(b, 16), height: u32be(b, 20) };
}

// SOF0-SOF15 carry the frame size, except DHT (C4), JPG (C8) and DAC (CC).
const isStartOfFrame = (m: number) => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;

function jpeg(b: Uint8Array): ImageSize | null {
  let i = 2;
  // Segments are walked by their lengths, so the loop takes at most one step per segment.
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1] ?? 0;
    if (marker === 0xff) {
      i++;
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image or scan data before any frame
    if (isStartOfFrame(marker))
      return { height: u16be(b, i + 5), width: u16be(b, i + 7), components: b[i + 9] ?? 0 };
    const length = u16be(b, i + 2);
    if (length < 2) return null;
    i += 2 + length;
  }
  return null;
}

function webp(b: Uint8Array): ImageSize | null {
  const chunk = tag(b, 12);
  if (chunk === "VP8 " && b[23] === 0x9d && b[24] === 0x01 && b[25] === 0x2a) {
    return { width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
  }
  if (chunk === "VP8L" && b[20] === 0x2f) {
    const bits = (b[21] ?? 0) | ((b[22] ?? 0) << 8) | ((b[23] ?? 0) << 16) | ((b[24] ?? 0) << 24);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8X" && b.length >= 30) return { width: u24le(b, 24) + 1, height: u24le(b, 27) + 1 };
  return null;
}

/**
 * Reads the width and height an image declares (PNG IHDR, JPEG SOF, WebP VP8/VP8L/VP8X) without
 * decoding it, so oversized images can be refused first. Null when the header is malformed.
 */
export function readImageSize(bytes: Uint8Array, kind: DocumentKind): ImageSize | null {
  const size =
    kind === "png" ? png(bytes) : kind === "jpeg" ? jpeg(bytes) : kind === "webp" ? webp(bytes) : null;
  return size !== null && size.width > 0 && size.height > 0 ? size : null;
}

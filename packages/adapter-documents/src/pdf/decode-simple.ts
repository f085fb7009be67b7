import { boundedOutput } from "./bounded-output.js";
import type { Decoded } from "./decode-zlib.js";

/** RunLengthDecode: up to 64:1 (two bytes repeat one byte 128 times), so it is bounded too. */
export function runLengthBounded(data: Uint8Array, cap: number, keep: boolean): Decoded {
  const out = boundedOutput(cap, keep, data.length * 2);
  let at = 0;
  while (at < data.length) {
    const n = data[at++] ?? 128;
    if (n === 128) break;
    if (n < 128) {
      for (let i = 0; i <= n && at < data.length; i++) if (!out.push(data[at++] ?? 0)) return out.result();
    } else {
      const byte = data[at++];
      if (byte === undefined) break;
      for (let i = 0; i < 257 - n; i++) if (!out.push(byte)) return out.result();
    }
  }
  return out.result();
}

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x0c || c === 0;

/** ASCIIHexDecode: two hex digits a byte, whitespace skipped, `>` ends it. Never larger than its input. */
export function asciiHex(data: Uint8Array, cap: number, keep: boolean): Decoded {
  const out = boundedOutput(cap, keep, data.length / 2);
  let high = -1;
  for (const c of data) {
    if (c === 0x3e) break;
    const digit =
      c >= 0x30 && c <= 0x39
        ? c - 0x30
        : c >= 0x41 && c <= 0x46
          ? c - 55
          : c >= 0x61 && c <= 0x66
            ? c - 87
            : -1;
    if (digit < 0) continue;
    if (high < 0) high = digit;
    else {
      if (!out.push(high * 16 + digit)) return out.result();
      high = -1;
    }
  }
  if (high >= 0) out.push(high * 16);
  return out.result();
}

/** ASCII85Decode: five characters four bytes, `z` four zeros, `~>` ends it. Never much larger than its input. */
export function ascii85(data: Uint8Array, cap: number, keep: boolean): Decoded {
  const out = boundedOutput(cap, keep, data.length);
  const group: number[] = [];
  const flush = (count: number) => {
    let value = 0;
    for (let i = 0; i < 5; i++) value = value * 85 + (group[i] ?? 84);
    for (let i = 0; i < count; i++) if (!out.push(Math.floor(value / 256 ** (3 - i)) & 0xff)) return false;
    group.length = 0;
    return true;
  };
  for (const c of data) {
    if (c === 0x7e) break;
    if (isSpace(c)) continue;
    if (c === 0x7a && group.length === 0) {
      for (let i = 0; i < 4; i++) if (!out.push(0)) return out.result();
    } else if (c >= 0x21 && c <= 0x75) {
      group.push(c - 0x21);
      if (group.length === 5 && !flush(4)) return out.result();
    }
  }
  if (group.length > 1) flush(group.length - 1);
  return out.result();
}

/** Parameters of a PNG (10..15) or TIFF (2) predictor, from DecodeParms. */
export interface PredictorParams {
  predictor: number;
  colors: number;
  bitsPerComponent: number;
  columns: number;
}

/**
 * Undoes a PNG or TIFF predictor, as pdf.js's PredictorStream does after Flate or LZW: needed
 * only to hand the right bytes to a further filter of a chain. The output is never larger than
 * the input (PNG drops a byte a row).
 */
export function unpredict(data: Uint8Array, p: PredictorParams): Uint8Array {
  const pixelBytes = Math.max(1, Math.ceil((p.colors * p.bitsPerComponent) / 8));
  const rowBytes = Math.ceil((p.columns * p.colors * p.bitsPerComponent) / 8);
  if (rowBytes < 1) return data;
  if (p.predictor === 2) {
    if (p.bitsPerComponent !== 8) return data; // other depths keep their size; the bytes matter little here
    const out = Uint8Array.from(data);
    for (let row = 0; row + rowBytes <= out.length; row += rowBytes)
      for (let i = pixelBytes; i < rowBytes; i++)
        out[row + i] = ((out[row + i] ?? 0) + (out[row + i - pixelBytes] ?? 0)) & 0xff;
    return out;
  }
  const rows = Math.floor(data.length / (rowBytes + 1));
  const out = new Uint8Array(rows * rowBytes);
  for (let r = 0; r < rows; r++) {
    const type = data[r * (rowBytes + 1)] ?? 0;
    const src = r * (rowBytes + 1) + 1;
    const dst = r * rowBytes;
    for (let i = 0; i < rowBytes; i++) {
      const raw = data[src + i] ?? 0;
      const left = i >= pixelBytes ? (out[dst + i - pixelBytes] ?? 0) : 0;
      const up = r > 0 ? (out[dst + i - rowBytes] ?? 0) : 0;
      const upLeft = r > 0 && i >= pixelBytes ? (out[dst + i - rowBytes - pixelBytes] ?? 0) : 0;
      out[dst + i] = (raw + pngPredict(type, left, up, upLeft)) & 0xff;
    }
  }
  return out;
}

function pngPredict(type: number, left: number, up: number, upLeft: number): number {
  if (type === 1) return left;
  if (type === 2) return up;
  if (type === 3) return (left + up) >> 1;
  if (type !== 4) return 0;
  const p = left + up - upLeft;
  const pa = Math.abs(p - left);
  const pb = Math.abs(p - up);
  const pc = Math.abs(p - upLeft);
  return pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
}

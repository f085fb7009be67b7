import { boundedOutput } from "./bounded-output.js";
import type { Decoded } from "./decode-zlib.js";

/**
 * Decodes an LZWDecode stream exactly as pdf.js's LZWStream does (9 to 12 bit codes, clear 256,
 * end 257, `earlyChange` from DecodeParms), stopping once the output passes `cap`. LZW reaches
 * about 2700:1, so it is as much a bomb as Flate. Work is proportional to the output, which the
 * cap bounds.
 */
export function lzwBounded(data: Uint8Array, cap: number, keep: boolean, earlyChange = 1): Decoded {
  const out = boundedOutput(cap, keep, data.length * 4);
  const values = new Uint8Array(4096);
  const lengths = new Uint16Array(4096);
  const prevCodes = new Uint16Array(4096);
  const sequence = new Uint8Array(4096);
  for (let i = 0; i < 256; i++) {
    values[i] = i;
    lengths[i] = 1;
  }
  let nextCode = 258;
  let codeLength = 9;
  let prevCode = 0;
  let sequenceLength = 0;
  let bitBuffer = 0;
  let bitCount = 0;
  let at = 0;
  const readBits = (n: number): number | null => {
    while (bitCount < n) {
      const byte = data[at++];
      if (byte === undefined) return null;
      bitBuffer = ((bitBuffer << 8) | byte) >>> 0;
      bitCount += 8;
    }
    bitCount -= n;
    return (bitBuffer >>> bitCount) & ((1 << n) - 1);
  };
  for (;;) {
    const code = readBits(codeLength);
    if (code === null) break;
    const hasPrev = sequenceLength > 0;
    if (code < 256) {
      sequence[0] = code;
      sequenceLength = 1;
    } else if (code >= 258) {
      if (code < nextCode) {
        sequenceLength = lengths[code] ?? 0;
        for (let j = sequenceLength - 1, q = code; j >= 0; j--) {
          sequence[j] = values[q] ?? 0;
          q = prevCodes[q] ?? 0;
        }
      } else if (sequenceLength < sequence.length) {
        sequence[sequenceLength++] = sequence[0] ?? 0;
      }
    } else if (code === 256) {
      codeLength = 9;
      nextCode = 258;
      sequenceLength = 0;
      continue;
    } else {
      break; // 257: end of data
    }
    if (hasPrev && nextCode < 4096) {
      prevCodes[nextCode] = prevCode;
      lengths[nextCode] = (lengths[prevCode] ?? 0) + 1;
      values[nextCode] = sequence[0] ?? 0;
    }
    if (hasPrev) {
      nextCode++;
      const grow = (nextCode + earlyChange) & (nextCode + earlyChange - 1);
      codeLength = grow ? codeLength : Math.min(Math.floor(Math.log2(nextCode + earlyChange)) + 1, 12);
    }
    prevCode = code;
    for (let i = 0; i < sequenceLength; i++) if (!out.push(sequence[i] ?? 0)) return out.result();
  }
  return out.result();
}

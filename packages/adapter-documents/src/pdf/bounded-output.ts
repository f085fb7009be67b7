import type { Decoded } from "./decode-zlib.js";

/** A byte sink that counts everything and keeps bytes only when asked, never past its cap. */
export interface BoundedOutput {
  /** Appends one byte; false once the cap is passed (the decoder stops). */
  push(byte: number): boolean;
  /** The result to hand back. */
  result(): Decoded;
}

/** Creates a sink: `keep` false counts only, so a last layer costs no memory. */
export function boundedOutput(cap: number, keep: boolean, sizeHint: number): BoundedOutput {
  let buffer = new Uint8Array(keep ? Math.min(Math.max(sizeHint, 1024), cap + 1) : 0);
  let size = 0;
  let over = false;
  return {
    push(byte) {
      if (over) return false;
      if (size >= cap) {
        over = true;
        size++;
        return false;
      }
      if (keep) {
        if (size === buffer.length) {
          const grown = new Uint8Array(Math.min(buffer.length * 2, cap + 1));
          grown.set(buffer);
          buffer = grown;
        }
        buffer[size] = byte;
      }
      size++;
      return true;
    },
    result() {
      return over || !keep ? { size, over } : { size, over, output: buffer.subarray(0, size) };
    },
  };
}

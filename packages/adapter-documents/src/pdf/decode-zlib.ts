import { createBrotliDecompress, createInflateRaw } from "node:zlib";

/** What a bounded decoder produced: its size, the bytes when kept, and whether it passed the cap. */
export interface Decoded {
  /** Bytes produced (at most cap + one chunk when `over`). */
  size: number;
  /** True when the output passed the cap: decoding stopped there. */
  over: boolean;
  /** The output, when asked for and not over the cap; a damaged stream gives what came before the damage. */
  output?: Uint8Array;
}

const CHUNK = 64 * 1024;

/**
 * Whether the first two bytes pass pdf.js's check of a Flate stream's zlib header (method 8,
 * check bits, no preset dictionary). pdf.js ignores the window size, so zlib's own stricter check
 * must not decide: a header zlib refuses but pdf.js takes would otherwise hide a bomb.
 */
export function flateHeaderOk(data: Uint8Array): boolean {
  const cmf = data[0];
  const flg = data[1];
  if (cmf === undefined || flg === undefined) return false;
  return (cmf & 0x0f) === 8 && ((cmf << 8) + flg) % 31 === 0 && (flg & 0x20) === 0;
}

type Stream = ReturnType<typeof createInflateRaw> | ReturnType<typeof createBrotliDecompress>;

/** Streams `data` through a zlib decoder, counting the output and stopping at the cap. */
function run(make: () => Stream, data: Uint8Array, cap: number, keep: boolean): Promise<Decoded> {
  return new Promise((resolve) => {
    const stream = make();
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (over: boolean) => {
      if (done) return;
      done = true;
      stream.destroy();
      resolve(over || !keep ? { size, over } : { size, over, output: Buffer.concat(chunks, size) });
    };
    stream.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > cap) finish(true);
      else if (keep) chunks.push(chunk);
    });
    // A damaged stream: pdf.js, too, gets what was decoded before the damage.
    stream.on("error", () => finish(false));
    stream.on("end", () => finish(false));
    stream.end(data);
  });
}

/** Inflates a Flate stream as pdf.js does (zlib header checked its way, then raw deflate), up to `cap` bytes. */
export function inflateBounded(data: Uint8Array, cap: number, keep: boolean): Promise<Decoded> {
  if (!flateHeaderOk(data)) return Promise.resolve({ size: 0, over: false, output: new Uint8Array(0) });
  return run(() => createInflateRaw({ chunkSize: CHUNK }), data.subarray(2), cap, keep);
}

/** Decompresses a Brotli stream (PDF 2.0's BrotliDecode) up to `cap` bytes. */
export function brotliBounded(data: Uint8Array, cap: number, keep: boolean): Promise<Decoded> {
  return run(() => createBrotliDecompress({ chunkSize: CHUNK }), data, cap, keep);
}

/** A PNG signature and IHDR declaring any size, with no pixel data: a decompression-bomb header. */
export function pngHeader(width: number, height: number): Uint8Array {
  const b = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(b, 0);
  b.writeUInt32BE(13, 8);
  b.write("IHDR", 12, "latin1");
  b.writeUInt32BE(width, 16);
  b.writeUInt32BE(height, 20);
  return b;
}

/** A JPEG whose first segment is APP0 and whose frame header (SOF0) declares any size. */
export function jpegHeader(width: number, height: number): Uint8Array {
  return Uint8Array.of(
    ...[0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00],
    ...[0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 255, width >> 8, width & 255, 0x01],
    ...new Array<number>(12).fill(0),
  );
}

/** A WebP RIFF container with one chunk of the given tag and body. */
export function webpChunk(tag: "VP8 " | "VP8L" | "VP8X", body: readonly number[]): Uint8Array {
  return Uint8Array.of(...Buffer.from(`RIFF\0\0\0\0WEBP${tag}\0\0\0\0`, "latin1"), ...body);
}

/** An extended (VP8X) WebP header declaring any canvas size, up to 2^24 a side. */
export function webpHeader(width: number, height: number): Uint8Array {
  const w = width - 1;
  const h = height - 1;
  return webpChunk("VP8X", [0, 0, 0, 0, w & 255, (w >> 8) & 255, w >> 16, h & 255, (h >> 8) & 255, h >> 16]);
}

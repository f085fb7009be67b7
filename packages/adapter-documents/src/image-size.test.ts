import { describe, expect, it } from "vitest";
import { jpegHeader, pngHeader, webpChunk, webpHeader } from "../test/support/image-headers.js";
import { readImageSize } from "./image-size.js";
import { encodeGrayPng } from "./png-encode.js";

describe("readImageSize", () => {
  it("reads a PNG's IHDR", () => {
    expect(readImageSize(encodeGrayPng(3, 2, new Uint8Array(6)), "png")).toEqual({ width: 3, height: 2 });
    expect(readImageSize(pngHeader(50_000, 40_000), "png")).toEqual({ width: 50_000, height: 40_000 });
  });

  it("walks JPEG segments to the frame header, and reads its colour components", () => {
    expect(readImageSize(jpegHeader(20_000, 10_000), "jpeg")).toEqual({
      width: 20_000,
      height: 10_000,
      components: 1,
    });
  });

  it("reads the three WebP headers", () => {
    const lossy = webpChunk("VP8 ", [0, 0, 0, 0x9d, 0x01, 0x2a, 0x40, 0x01, 0xf0, 0x00]);
    expect(readImageSize(lossy, "webp")).toEqual({ width: 320, height: 240 });
    expect(readImageSize(webpHeader(10_000, 9_000), "webp")).toEqual({ width: 10_000, height: 9_000 });
    const bits = 99 | (49 << 14);
    const lossless = webpChunk("VP8L", [0x2f, bits & 255, (bits >> 8) & 255, (bits >> 16) & 255, 0]);
    expect(readImageSize(lossless, "webp")).toEqual({ width: 100, height: 50 });
  });

  it("answers null for a malformed header", () => {
    expect(
      readImageSize(Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3), "png"),
    ).toBeNull();
    expect(readImageSize(Uint8Array.of(0xff, 0xd8, 0xff, 0xda, 0, 0, 0, 0, 0, 0, 0, 0), "jpeg")).toBeNull();
    expect(readImageSize(pngHeader(0, 10), "png")).toBeNull();
  });
});

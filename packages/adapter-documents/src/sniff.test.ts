import { describe, expect, it } from "vitest";
import { knownBinaryFormat, sniffKind } from "./sniff.js";

const bytes = (...parts: (string | number[])[]) =>
  Uint8Array.from(parts.flatMap((p) => (typeof p === "string" ? [...p].map((c) => c.charCodeAt(0)) : p)));

describe("sniffKind", () => {
  it("recognises each accepted format by its signature", () => {
    expect(sniffKind(bytes("%PDF-1.7\n"))).toBe("pdf");
    expect(sniffKind(bytes([0x89], "PNG", [0x0d, 0x0a, 0x1a, 0x0a]))).toBe("png");
    expect(sniffKind(bytes([0xff, 0xd8, 0xff, 0xe0]))).toBe("jpeg");
    expect(sniffKind(bytes("RIFF", [1, 2, 3, 4], "WEBPVP8 "))).toBe("webp");
  });

  it("treats everything else as a text candidate, whatever it claims to be", () => {
    expect(sniffKind(bytes("hello"))).toBe("text");
    expect(sniffKind(bytes("RIFF", [1, 2, 3, 4], "WAVE"))).toBe("text");
    expect(sniffKind(bytes(" %PDF-1.7"))).toBe("text");
  });
});

describe("knownBinaryFormat", () => {
  it("names formats that are refused, so the error can say what was sent", () => {
    expect(knownBinaryFormat(bytes("PK", [3, 4]))).toMatch(/ZIP/);
    expect(knownBinaryFormat(bytes("GIF89a"))).toMatch(/GIF/);
    expect(knownBinaryFormat(bytes([0xff, 0xfe], "h"))).toMatch(/UTF-16/);
    expect(knownBinaryFormat(bytes("plain text"))).toBeNull();
  });
});

import { isMarketplaceError } from "@psm/core";
import { describe, expect, it } from "vitest";
import { decodeText } from "./text-decode.js";

const refused = (bytes: Uint8Array): string => {
  try {
    decodeText(bytes);
  } catch (error) {
    if (isMarketplaceError(error, "unsupported_document")) return error.message;
    throw error;
  }
  throw new Error("accepted");
};

describe("decodeText", () => {
  it("decodes UTF-8 and drops a byte order mark", () => {
    expect(decodeText(new TextEncoder().encode("Préis: 1.500 €"))).toBe("Préis: 1.500 €");
    expect(decodeText(Uint8Array.of(0xef, 0xbb, 0xbf, 0x68, 0x69))).toBe("hi");
  });

  it("accepts any line endings and form feeds", () => {
    expect(decodeText(new TextEncoder().encode("a\r\nb\rc\fd"))).toBe("a\r\nb\rc\fd");
  });

  it("refuses invalid UTF-8", () => {
    expect(refused(Uint8Array.of(0x68, 0xc3, 0x28, 0x69))).toMatch(/not valid UTF-8/);
  });

  it("refuses binary data: a NUL byte, or many control characters", () => {
    expect(refused(Uint8Array.of(0x68, 0x00, 0x69))).toMatch(/binary/);
    expect(refused(new TextEncoder().encode("ab\u0001\u0002\u0003cd"))).toMatch(/binary/);
  });

  it("refuses known binary formats by name, and whitespace-only text", () => {
    expect(refused(Uint8Array.of(0x50, 0x4b, 0x03, 0x04, 0x14))).toMatch(/ZIP/);
    expect(refused(new TextEncoder().encode(" \n\t "))).toMatch(/no text/);
  });
});

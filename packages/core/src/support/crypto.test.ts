import { describe, expect, it } from "vitest";
import { fromBase64Url, toBase64Url } from "./crypto.js";

/** RFC 4648 §5 by the platform's btoa: the encoding the table must match byte for byte. */
const reference = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");

describe("toBase64Url", () => {
  it("matches RFC 4648's URL-safe alphabet without padding, for every length and byte", () => {
    for (let length = 0; length <= 66; length++) {
      const bytes = crypto.getRandomValues(new Uint8Array(length));
      expect(toBase64Url(bytes), `${length} bytes`).toBe(reference(bytes));
      expect(fromBase64Url(toBase64Url(bytes))).toEqual(bytes);
    }
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(toBase64Url(all)).toBe(reference(all));
    // The two characters that differ from plain base64, and the vector of RFC 4648 §10.
    expect(toBase64Url(Uint8Array.of(0xfb, 0xff))).toBe("-_8");
    expect(toBase64Url(new TextEncoder().encode("foobar"))).toBe("Zm9vYmFy");
    expect(toBase64Url(new TextEncoder().encode("fooba"))).toBe("Zm9vYmE");
  });
});

import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { escapeHtml } from "./html.js";

describe("escapeHtml", () => {
  test("leaves no markup-significant character behind and round-trips", () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const escaped = escapeHtml(text);
        expect(escaped).not.toMatch(/[<>"']/);
        const decoded = escaped
          .replaceAll("&lt;", "<")
          .replaceAll("&gt;", ">")
          .replaceAll("&quot;", '"')
          .replaceAll("&#39;", "'")
          .replaceAll("&amp;", "&");
        expect(decoded).toBe(text);
      }),
    );
  });
});

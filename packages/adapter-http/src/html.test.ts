import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { escapeHtml, messagePage, resetForm } from "./html.js";

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

  test("pages escape what they echo", () => {
    expect(resetForm('a"b', "<b>x</b>")).toContain('value="a&quot;b"');
    expect(resetForm("t", "<b>x</b>")).toContain("&lt;b&gt;x&lt;/b&gt;");
    expect(messagePage("<t>", "<m>", "ok")).not.toMatch(/<t>|<m>/);
  });
});

import { describe, expect, test } from "vitest";
import { MAX_REDIRECT_LENGTH, safeRedirectPath } from "./redirect.js";

const SITE = "https://market.example";

/** Where a browser on this site lands when told `Location: <path>`. */
const landsOn = (path: string) => new URL(path, SITE).origin;

// Ways out, each as a browser would read it or an attacker would dress it.
const HOSTILE = [
  "//evil.example",
  "///evil.example",
  "////evil.example",
  "/\\evil.example",
  "\\\\evil.example",
  "\\/evil.example",
  "/.//evil.example",
  "/./\\evil.example",
  "/..//evil.example",
  "/a/..//evil.example",
  "/%2e//evil.example",
  "/%2e%2e//evil.example",
  "/%2F/evil.example",
  "/%2f%2fevil.example",
  "/%5C/evil.example",
  "/%5cevil.example",
  "/%09/evil.example",
  "/%0a/evil.example",
  "/%0d%0a/evil.example",
  "/%00/evil.example",
  "https://evil.example",
  "http:evil.example",
  "http:/evil.example",
  "HTTP://evil.example",
  "javascript:alert(1)",
  "JaVaScRiPt:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "evil.example",
  " /evil.example",
  " //evil.example",
  "/\u3002evil.example",
  "\uff0f\uff0fevil.example",
  "/\uff0fevil.example",
  "/\u2028/evil.example",
  "/?next=//evil.example",
  "/#//evil.example",
  "/listings/abc?x=1",
];

// What a browser strips or reads as a slash, and what decodes into one later.
const INSERTS = [
  "\t",
  "\n",
  "\r",
  "\r\n",
  " ",
  "\u0000",
  "\u000b",
  "\u000c",
  "\u001f",
  "\u007f",
  "\u00a0",
  "\ufeff",
  "\\",
  "/",
  "./",
  "../",
  "%09",
  "%5C",
  "%2F",
];

/** Every hostile string, and each with every insert at every position and in front of it twice. */
function* hostileVariants(): Generator<string> {
  for (const base of HOSTILE) {
    yield base;
    for (const insert of INSERTS) {
      yield insert + insert + base;
      for (let at = 0; at <= base.length; at++) yield base.slice(0, at) + insert + base.slice(at);
    }
  }
}

describe("safeRedirectPath", () => {
  test("keeps a path of this site as it is", () => {
    expect(safeRedirectPath("/listings/abc?x=1")).toBe("/listings/abc?x=1");
    expect(safeRedirectPath("/account/keys")).toBe("/account/keys");
    expect(safeRedirectPath("/inbox#latest")).toBe("/inbox#latest");
    expect(safeRedirectPath("/?q=legal%20advice&page=2")).toBe("/?q=legal%20advice&page=2");
    expect(safeRedirectPath("/")).toBe("/");
  });

  test("answers the path normalised as a browser resolves it", () => {
    expect(safeRedirectPath("/my/../account/keys")).toBe("/account/keys");
    expect(safeRedirectPath("/caf\u00e9")).toBe("/caf%C3%A9");
    // Encoded, a tab stays a character of a path of this site.
    expect(safeRedirectPath("/%09/evil.example")).toBe("/%09/evil.example");
  });

  test("falls back when there is nothing, or a way out", () => {
    expect(safeRedirectPath(undefined)).toBe("/");
    expect(safeRedirectPath("")).toBe("/");
    expect(safeRedirectPath("/\t/evil.example")).toBe("/");
    expect(safeRedirectPath("/\n/evil.example")).toBe("/");
    expect(safeRedirectPath("//evil.example")).toBe("/");
    expect(safeRedirectPath("/\\evil.example")).toBe("/");
    expect(safeRedirectPath("/.//evil.example")).toBe("/");
    expect(safeRedirectPath("https://evil.example")).toBe("/");
    expect(safeRedirectPath("javascript:alert(1)")).toBe("/");
    expect(safeRedirectPath("//evil.example", "/account")).toBe("/account");
  });

  test("bounds the input's length", () => {
    const longest = `/${"a".repeat(MAX_REDIRECT_LENGTH - 1)}`;
    expect(safeRedirectPath(longest)).toBe(longest);
    expect(safeRedirectPath(`${longest}a`)).toBe("/");
  });

  test("whatever a hostile variant is, the answer is a path that stays on the site", () => {
    let count = 0;
    for (const next of hostileVariants()) {
      count++;
      const result = safeRedirectPath(next);
      expect(landsOn(result), JSON.stringify(next)).toBe(SITE);
      expect(result, JSON.stringify(next)).toMatch(/^\/(?![/\\])[\u0021-\u007e]*$/);
      // Normalised once is normalised for good: the answer is its own answer.
      expect(safeRedirectPath(result), JSON.stringify(next)).toBe(result);
    }
    expect(count).toBeGreaterThan(10_000);
  });
});

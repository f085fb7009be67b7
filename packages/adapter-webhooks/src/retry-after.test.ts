import { describe, expect, it } from "vitest";
import { MAX_RETRY_AFTER_MS, parseRetryAfter } from "./retry-after.js";

const NOW = Date.parse("2026-11-28T06:00:00Z");

describe("parseRetryAfter", () => {
  it.each([
    ["0", 0],
    ["120", 120_000],
    [" 7 ", 7_000],
    ["86400", MAX_RETRY_AFTER_MS],
    ["86401", MAX_RETRY_AFTER_MS],
    ["99999999999999999999999", MAX_RETRY_AFTER_MS],
  ])("reads the delta-seconds %j", (value, ms) => {
    expect(parseRetryAfter(value, NOW)).toBe(ms);
  });

  it.each([
    ["Sat, 28 Nov 2026 06:02:00 GMT", 120_000], // IMF-fixdate
    ["Saturday, 28-Nov-26 06:00:30 GMT", 30_000], // RFC 850
    ["Sat Nov 28 06:00:05 2026", 5_000], // asctime, which is in GMT
    ["Sun, 29 Nov 2026 07:00:00 GMT", MAX_RETRY_AFTER_MS],
  ])("reads the HTTP-date %j", (value, ms) => {
    expect(parseRetryAfter(value, NOW)).toBe(ms);
  });

  it.each([
    undefined,
    "",
    "soon",
    "-5",
    "1.5",
    "1e3",
    "0x10",
    "120 seconds",
    "2026-11-28T06:02:00Z", // ISO 8601 is not an HTTP-date
    "Sat, 28 Nov 2026 05:59:00 GMT", // already past: nothing to wait for
    "Sat, 28 Nov 2026 06:00:00 GMT",
    "Xyz, 99 Foo 2026 06:02:00 GMT",
  ])("ignores %j", (value) => {
    expect(parseRetryAfter(value, NOW)).toBeUndefined();
  });
});

import { describe, expect, it } from "vitest";
import { decodeKeptAnswer, encodeKeptAnswer } from "./kept-answers.js";

/** A listing answer as a keyed PATCH keeps it: long description, 16 KiB of structured data. */
function largeAnswer(): string {
  const structured = Object.fromEntries(
    Array.from({ length: 400 }, (_, i) => [`field_${i}`, `value ${i} of the engagement terms`]),
  );
  return JSON.stringify({
    listing: {
      id: "0190",
      title: "Audit",
      description: "A careful audit. ".repeat(600),
      structured_data: structured,
    },
  });
}

describe("kept answers", () => {
  it("keeps a large answer deflated, at a fraction of its size, and gives it back byte for byte", () => {
    const body = largeAnswer();
    expect(body.length).toBeGreaterThan(25_000);
    const kept = encodeKeptAnswer({ status: 200, body });
    expect(kept.length).toBeLessThan(body.length / 5);
    expect(decodeKeptAnswer(kept)).toEqual({ status: 200, body });
  });

  it("keeps a small answer as it is, the form 1.2 kept; any answer reads back byte for byte", () => {
    const small = '{"success":true}';
    expect(encodeKeptAnswer({ status: 200, body: small })).toBe(JSON.stringify({ status: 200, body: small }));
    const noise = JSON.stringify({
      n: Array.from({ length: 2000 }, (_, i) => ((i * 7919) % 65_521).toString(36)).join(""),
    });
    const kept = JSON.parse(encodeKeptAnswer({ status: 201, body: noise })) as Record<string, unknown>;
    expect(decodeKeptAnswer(JSON.stringify(kept))).toEqual({ status: 201, body: noise });
    expect(() => decodeKeptAnswer('{"status":200}')).toThrow();
  });
});

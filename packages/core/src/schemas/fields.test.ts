import { describe, expect, it } from "vitest";
import { MarketplaceError } from "../errors.js";
import { validate } from "../support/validate.js";
import { isoDateTime, isStorableText, price, STRUCTURED_DATA_LIMITS, structuredData } from "./fields.js";
import { listingPatchSchema } from "./listing-patch.js";
import { newListingSchema } from "./new-listing.js";

const BASE = { title: "Audit", description: "A careful audit", category: "cybersecurity" };

/** The message `validate` throws for `input`, or null when it passes. */
function refusal(schema: Parameters<typeof validate>[0], input: unknown): string | null {
  try {
    validate(schema, input);
    return null;
  } catch (error) {
    if (error instanceof MarketplaceError && error.code === "invalid_input") return error.message;
    throw error;
  }
}

/** An object nested `levels` deep (the object itself is level 1), built without recursion. */
function nested(levels: number, kind: "object" | "array" = "object"): Record<string, unknown> {
  let inner: unknown = "leaf";
  for (let i = 1; i < levels; i++) inner = kind === "object" ? { k: inner } : [inner];
  return { k: inner };
}

/** `root` behind proxies that count every property read, at any depth: the work of a walk, counted. */
function counted<T extends object>(root: T): { value: T; reads: () => number } {
  let reads = 0;
  const wrap = (value: unknown): unknown =>
    typeof value === "object" && value !== null
      ? new Proxy(value, {
          get(target, key, receiver) {
            reads++;
            return wrap(Reflect.get(target, key, receiver));
          },
        })
      : value;
  return { value: wrap(root) as T, reads: () => reads };
}

describe("isStorableText", () => {
  it("refuses NUL and lone surrogates, and nothing else", () => {
    for (const bad of ["\0", "a\0b", "\ud800", "x\udfff", "\udc00\ud800", "😀".slice(0, 1)]) {
      expect(isStorableText(bad), JSON.stringify(bad)).toBe(false);
    }
    for (const good of ["", "plain", "😀", "\u0001\u001f\u007f", "\u2028\u2029", "\ufeff\uffff", "e\u0301"]) {
      expect(isStorableText(good), JSON.stringify(good)).toBe(true);
    }
  });
});

describe("every string field of a body refuses NUL and lone surrogates, naming the field", () => {
  const cases: [string, Record<string, unknown>][] = [
    ["title", { title: "A\0" }],
    ["description", { description: "\ud800" }],
    ["condition", { condition: "new\0" }],
    ["images", { images: ["https://example.com/a\0.png"] }],
    ["images", { images: ["https://example.com/\udc00"] }],
    ["contactEmail", { contactEmail: "a\0@example.com" }],
    ["expiresAt", { expiresAt: "2030-01-01T00:00:00Z\0" }],
    ["price", { price: "1\0" }],
  ];
  for (const [field, patch] of cases) {
    it(`${field}: ${JSON.stringify(Object.values(patch)[0])}`, () => {
      expect(refusal(newListingSchema, { ...BASE, ...patch })).toMatch(new RegExp(`^${field}(\\.\\d+)?: `));
      expect(refusal(listingPatchSchema, patch)).toMatch(new RegExp(`^${field}(\\.\\d+)?: `));
    });
  }

  it("the message says what is wrong", () => {
    expect(refusal(newListingSchema, { ...BASE, title: "A\0" })).toBe(
      "title: must not contain a NUL character or a lone surrogate",
    );
  });
});

describe("structuredData", () => {
  it("refuses NUL and lone surrogates in any string, values and keys, at any depth, saying where", () => {
    const bad: [unknown, string][] = [
      [{ a: "\0" }, "a string at .a"],
      [{ "k\0": 1 }, 'a key at ["k\\u0000"]'],
      [{ list: [1, { deep: ["ok", "\ud800"] }] }, "a string at .list[1].deep[1]"],
      [{ "\udfff": "x" }, 'a key at ["\\udfff"]'],
    ];
    for (const [value, where] of bad) {
      const message = refusal(newListingSchema, { ...BASE, structuredData: value });
      expect(message).toBe(`structuredData: must not contain a NUL character or a lone surrogate (${where})`);
    }
  });

  it("accepts 32 levels and refuses 33, of objects and of arrays", () => {
    for (const kind of ["object", "array"] as const) {
      expect(refusal(structuredData, nested(32, kind))).toBeNull();
      expect(refusal(structuredData, nested(33, kind))).toBe("must be at most 32 levels deep");
    }
    expect(STRUCTURED_DATA_LIMITS.maxDepth).toBe(32);
  });

  it("answers a value nested 100,000 deep without recursion, reading only the levels it allows", () => {
    for (const kind of ["object", "array"] as const) {
      const deep = counted(nested(100_000, kind));
      expect(refusal(structuredData, deep.value)).toBe("must be at most 32 levels deep");
      // Counted, not timed: about two reads a level down to the 33rd, none of the 99,967 below.
      expect(deep.reads()).toBeLessThan(200);
    }
  });

  it("refuses more than 16 KiB, counted as UTF-8, and huge inputs reading each entry at most twice", () => {
    expect(refusal(structuredData, { s: "x".repeat(16 * 1024 - 8) })).toBeNull();
    expect(refusal(structuredData, { s: "x".repeat(16 * 1024) })).toBe("must be at most 16 KiB");
    expect(refusal(structuredData, { s: "é".repeat(8 * 1024) })).toBe("must be at most 16 KiB");
    const wide = counted(Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, i])));
    const many = counted({ list: Array.from({ length: 200_000 }, () => 0) });
    expect(refusal(structuredData, wide.value)).toBe("must be at most 16 KiB");
    expect(refusal(structuredData, many.value)).toBe("must be at most 16 KiB");
    expect(wide.reads()).toBeLessThanOrEqual(2 * 50_000 + 100);
    expect(many.reads()).toBeLessThanOrEqual(2 * 200_000 + 100);
  });

  it("keeps every key, constructor and __proto__ included, and returns the value as given", () => {
    const value = JSON.parse('{"__proto__":{"x":1},"constructor":"c","prototype":[],"a":{"b":null}}');
    const output = validate(structuredData, value);
    expect(output).toBe(value);
    expect(Object.keys(output)).toEqual(["__proto__", "constructor", "prototype", "a"]);
    expect(JSON.stringify(output)).toBe(
      '{"__proto__":{"x":1},"constructor":"c","prototype":[],"a":{"b":null}}',
    );
  });

  it("refuses what JSON cannot carry exactly (an embedder's values)", () => {
    const sparse: number[] = [1];
    sparse[2] = 3;
    for (const value of [
      { a: undefined },
      { a: () => 1 },
      { a: new Date() },
      { a: Number.NaN },
      { a: Number.POSITIVE_INFINITY },
      { a: sparse },
      { a: new Map() },
      { a: 1n },
    ]) {
      expect(refusal(structuredData, value)).toMatch(
        /^must contain only (JSON values|finite numbers) \(at \.a/,
      );
    }
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(refusal(structuredData, cycle)).toBe("must be at most 32 levels deep");
    expect(refusal(structuredData, [])).toBe("must be a JSON object");
    expect(refusal(structuredData, Object.create(null))).toBeNull();
  });
});

describe("other bounds that would change a value silently", () => {
  it("expiresAt must name a real instant that both backends store", () => {
    for (const bad of [
      "2026-02-30T00:00:00Z",
      "2025-02-29T12:00:00Z",
      "2026-04-31T00:00:00Z",
      "2026-03-01T12:00:00 +05:00",
      "2026-03-01T12:00:00+05",
      "0000-06-01T00:00:00Z",
      "0001-01-01T00:00:00Z",
      "0999-12-31T23:59:59.999Z",
      "1000-01-01T00:00:00+01:00",
      "9999-12-31T23:59:59-01:00",
    ]) {
      expect(refusal(isoDateTime, bad), bad).not.toBeNull();
    }
    for (const good of ["2024-02-29T00:00:00Z", "1000-01-01T00:00:00Z", "9999-12-31T23:59:59.999Z"]) {
      expect(refusal(isoDateTime, good), good).toBeNull();
    }
    expect(validate(isoDateTime, "2026-03-01T12:00:00+05:00").toISOString()).toBe("2026-03-01T07:00:00.000Z");
  });

  it("a numeric price string too large for a number is refused, not stored as Infinity", () => {
    expect(refusal(price, "9".repeat(400))).not.toBeNull();
    expect(validate(price, "12.50")).toBe(12.5);
  });
});

/** Hostile values for the surface contract: text every surface can carry, and JSON types only the API and MCP can. */
import fc from "fast-check";
import { hasLoneSurrogate } from "./wire.js";

/** The characters core's text rule is about, and look-alikes of their escapes that are plain text. */
const NASTY = ["\u0000", "\ud800", "\udfff", "\udc00\ud800", "%00", "%ED%A0%80", "\u202e", "\ufeff", "𝄞"];

/**
 * Text as a hostile client types it: ordinary (so that acceptance is exercised too), empty or
 * blank, NUL and lone surrogates alone or inside ordinary text, and huge runs (5,000 characters
 * up to `maxHuge`: past every field bound but description's 20,000).
 */
export function hostileText(maxHuge = 200_000): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.string({ minLength: 1, maxLength: 30, unit: "grapheme" }) },
    { weight: 2, arbitrary: fc.constantFrom("", " ", "\t\n", ...NASTY) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.string({ maxLength: 12 }), fc.constantFrom(...NASTY), fc.string({ maxLength: 12 }))
        .map(([before, nasty, after]) => `${before}${nasty}${after}`),
    },
    {
      weight: 1,
      arbitrary: fc.integer({ min: Math.min(5_000, maxHuge), max: maxHuge }).map((n) => "a".repeat(n)),
    },
  );
}

/** Mostly `valid`: a run must see inputs accepted as well as refused. */
export const orValid = <T>(valid: fc.Arbitrary<T>, hostile: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> =>
  fc.oneof({ weight: 2, arbitrary: valid }, { weight: 1, arbitrary: hostile });

/** Not text at all: what only a JSON body (the API, MCP) can send where text is expected. */
export const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }),
  fc.integer({ min: 40, max: 2_000 }).map((depth) => {
    let value: unknown = "x";
    for (let i = 0; i < depth; i++) value = { a: value };
    return value;
  }),
);

/** A field of a JSON body: mostly hostile text, sometimes a wrong type. */
export const hostileField = (maxHuge?: number): fc.Arbitrary<unknown> =>
  fc.oneof({ weight: 5, arbitrary: hostileText(maxHuge) }, { weight: 1, arbitrary: wrongType });

/** Text where a number is expected: numbers written every way a form could carry, and not numbers. */
export const numberText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom("12", "0", "4800.50", " 7 ", "-1", "1e5", "NaN", "Infinity", "0x10", "1,000", "½"),
  fc.constantFrom("9".repeat(400), "1\u0000", "\ud8001", "12abc"),
  fc.nat().map(String),
  hostileText().filter((text) => text.trim() !== ""),
);

/**
 * An address around a tag each surface fills in with its own (same length, same characters), so
 * two surfaces get addresses equally valid but never the same account: `pre + tag + post`.
 */
export const taggedEmail: fc.Arbitrary<(tag: string) => string> = fc
  .oneof(
    // Valid, or nearly: blanks a reader trims, look-alikes of a domain.
    {
      weight: 3,
      arbitrary: fc.tuple(
        fc.constantFrom("", "a.", " ", "É"),
        fc.constantFrom("@acme.io", "@Acme.IO", "@acme.io ", "@", "", "@acme", "@ac me.io", "@acme..io"),
      ),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(
        fc.oneof(fc.constant("x".repeat(300)), hostileText()),
        fc.oneof(
          fc.constantFrom("@acme.io\u0000", "@ac\ud800me.io", `@${"a".repeat(250)}.io`),
          hostileText().map((text) => `@${text}`),
        ),
      ),
    },
  )
  .map(
    ([pre, post]) =>
      (tag: string) =>
        `${pre}${tag}${post}`,
  );

/**
 * Extra fields neither surface knows, up to 150 (a form takes 200 fields at most, past which it is
 * unreadable). Their text is well-formed: a lone surrogate reaches a form only as bytes that are
 * not UTF-8, which make the whole body unreadable, while JSON carries it as an escape in a field
 * the API drops; that is a difference of encodings, not of what the surfaces accept.
 */
export const extraFields: fc.Arbitrary<Record<string, string>> = fc
  .tuple(
    fc.nat({ max: 150 }),
    hostileText(2_000).filter((text) => !hasLoneSurrogate(text)),
  )
  .map(([count, value]) =>
    Object.fromEntries(Array.from({ length: count }, (_, i) => [`extra_${i}`, value])),
  );

/** Whether every value is a string: only then do a form and a JSON body carry the same input. */
export const allText = (values: readonly unknown[]): boolean => values.every((v) => typeof v === "string");

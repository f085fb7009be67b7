/**
 * Property-based fuzzing of POST /api/parse-pdf with the real document parser and generated
 * hostile documents: decompression bombs in every filter spelling, then damaged at random;
 * "PDF soup" made of the syntax's own pieces; the super-linear text shapes at random sizes; and
 * multipart bodies cut or bent. Property: every answer is one decisions.md allows for an
 * upload (200, 400, 413, 422, or 503 with Retry-After), in the error shape, never a 500; and
 * every request ends (the test's timeout is the bound). The seed is fixed, so CI replays it.
 */

import { BOMB_SPELLINGS, bombPdf, HOSTILE_TEXTS } from "@psm/adapter-documents/testing";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { useDocumentParser } from "../security/support/document-parser.js";
import { target } from "../security/support/target.js";

const FUZZ_SEED = 20_261_124;
const KiB = 1024;

// Small bounds keep each run short: bombs past 8 MiB are refused, the rest are read for real.
const parser = useDocumentParser({ maxPdfInflateBytes: 8 * 1024 * KiB, parseTimeoutMs: 5_000 });

const PDF_PIECES = [
  "1 0 obj",
  "2 0 obj",
  "endobj",
  "stream\n",
  "endstream",
  "<<",
  ">>",
  "[",
  "]",
  "(",
  ")",
  "<",
  ">",
  "/Filter",
  "/F",
  "/FlateDecode",
  "/Fl",
  "/F#6cateDecode",
  "/LZWDecode",
  "/ASCIIHexDecode",
  "/DecodeParms",
  "/Length 5 0 R",
  "/Length 99999999",
  "5 0 R",
  "/Type /ObjStm",
  "/N 3",
  "/First 0",
  "%comment\n",
  "xref",
  "trailer",
  "startxref",
  "\x78\x9c",
  "\x00\xff",
  " ",
  "\n",
  "\r\n",
  "1",
  "-1",
  "99999999999",
];

/** A PDF bomb in one of its spellings, sometimes damaged at one place. */
const bombs = fc
  .record({
    spelling: fc.constantFrom(...BOMB_SPELLINGS),
    claim: fc.constantFrom(16 * KiB, 2 * 1024 * KiB, 32 * 1024 * KiB),
    damage: fc.option(fc.record({ at: fc.nat(), bytes: fc.uint8Array({ minLength: 1, maxLength: 8 }) })),
  })
  .map(async ({ spelling, claim, damage }) => {
    const pdf = await bombPdf(claim, spelling);
    if (damage !== null)
      pdf.set(damage.bytes.subarray(0, pdf.length), damage.at % Math.max(1, pdf.length - 8));
    return { bytes: pdf, name: "bomb.pdf", type: "application/pdf" };
  });

/** `%PDF-` followed by the syntax's own pieces in any order. */
const soups = fc
  .array(fc.constantFrom(...PDF_PIECES), { minLength: 1, maxLength: 200 })
  .chain((pieces) =>
    fc.nat({ max: 2_000 }).map((times) => `%PDF-1.7\n${pieces.join(" ").repeat(1 + (times % 50))}`),
  )
  .map(async (text) => ({
    bytes: new Uint8Array(Buffer.from(text, "latin1")),
    name: "soup.pdf",
    type: "application/pdf",
  }));

/** A super-linear text shape, at a random size up to 200 000 characters. */
const texts = fc
  .record({
    shape: fc.constantFrom(...Object.keys(HOSTILE_TEXTS)),
    size: fc.integer({ min: 100, max: 200_000 }),
  })
  .map(async ({ shape, size }) => {
    const text = (HOSTILE_TEXTS[shape] ?? ((n: number) => "x".repeat(n)))(size);
    return { bytes: new Uint8Array(Buffer.from(text, "utf8")), name: "shape.txt", type: "text/plain" };
  });

/** The upload as multipart, or its body cut short, or sent under a bent boundary. */
const bodies = fc
  .record({
    document: fc.oneof(bombs, soups, texts),
    form: fc.oneof(
      { arbitrary: fc.constant("whole"), weight: 6 },
      { arbitrary: fc.constantFrom("cut", "bent-boundary", "no-filename"), weight: 2 },
    ),
    cut: fc.nat(),
  })
  .map(async ({ document, form, cut }) => {
    const doc = await document;
    const boundary = "fuzzBoundary";
    const filename = form === "no-filename" ? "" : `; filename="${doc.name}"`;
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"${filename}\r\nContent-Type: ${doc.type}\r\n\r\n`;
    let body = Buffer.concat([
      Buffer.from(head, "latin1"),
      doc.bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`, "latin1"),
    ]);
    if (form === "cut") body = body.subarray(0, cut % body.length);
    const sent = form === "bent-boundary" ? `${boundary}x` : boundary;
    return { body: new Uint8Array(body), contentType: `multipart/form-data; boundary=${sent}` };
  });

describe("fuzz POST /api/parse-pdf with hostile documents", () => {
  test("every answer is a documented one, in the error shape; none is a 500", {
    timeout: 120_000,
  }, async () => {
    const t = target({ documents: parser });
    const session = await t.signUp();
    await fc.assert(
      fc.asyncProperty(bodies, async (pending) => {
        const { body, contentType } = await pending;
        const res = await t.request("POST", "/api/parse-pdf", {
          token: session.token,
          raw: body,
          headers: { "Content-Type": contentType },
        });
        const text = await res.text();
        expect([200, 400, 413, 422, 503], `${res.status} ${text.slice(0, 200)}`).toContain(res.status);
        if (res.status === 503) expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
        if (res.status === 200) return;
        const error = JSON.parse(text) as Record<string, unknown>;
        expect(Object.keys(error).sort()).toEqual(["code", "error"]);
      }),
      { seed: FUZZ_SEED, numRuns: 80, endOnFailure: true },
    );
  });
});

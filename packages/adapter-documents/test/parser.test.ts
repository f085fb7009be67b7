import { afterAll, describe, expect, it } from "vitest";
import { createDocumentParser } from "../src/index.js";
import { failureOf } from "./support/failure.js";
import { jpegHeader, pngHeader, webpHeader } from "./support/image-headers.js";
import { textToPdf } from "./support/make-pdf.js";
import { deflateBombPdf, encryptedPdf, hugePageCountPdf } from "./support/pdf-bombs.js";

const parser = createDocumentParser();
afterAll(() => parser.close());
const utf8 = (text: string) => new TextEncoder().encode(text);

const BROCHURE = `# Cloud Security Hardening

We review IAM, network exposure and encryption of your AWS accounts against the CIS benchmarks.
Engagement price: 6.000 € for one cloud account.
Privacy questions: privacy@cloudfort.io
Contact: hello@cloudfort.io`;

/** The MarketplaceError a parse of `bytes` fails with: its code, message and retryAfter. */
const failure = (bytes: Uint8Array, p = parser) => failureOf(p.parse({ bytes }));

describe("text documents", () => {
  it("extracts every field with confidence and source", async () => {
    const parsed = await parser.parse({
      bytes: utf8(BROCHURE),
      filename: "ignored.pdf",
      declaredType: "application/pdf",
    });
    expect(parsed).toMatchObject({
      kind: "text",
      title: "Cloud Security Hardening",
      category: "cybersecurity",
      price: 6000,
      contactEmail: "hello@cloudfort.io",
    });
    expect(parsed.description).toMatch(/^We review IAM/);
    for (const field of Object.values(parsed.fields)) {
      expect(field.confidence).toBeGreaterThanOrEqual(0);
      expect(field.confidence).toBeLessThanOrEqual(1);
      expect(field.source?.length ?? 0).toBeLessThanOrEqual(200);
    }
    expect(parsed.fields.price.source).toContain("6.000 €");
  });

  it("accepts a BOM, CRLF line endings and form-feed pages", async () => {
    const bytes = Uint8Array.of(
      0xef,
      0xbb,
      0xbf,
      ...utf8(BROCHURE.replaceAll("\n", "\r\n").replace("Privacy", "\fPrivacy")),
    );
    expect(await parser.parse({ bytes })).toMatchObject({
      kind: "text",
      price: 6000,
      contactEmail: "hello@cloudfort.io",
    });
  });
});

describe("PDF documents", () => {
  it("reads the text layer of a generated PDF; its title is the visible heading, not the hidden metadata", async () => {
    const parsed = await parser.parse({
      bytes: await textToPdf(BROCHURE, { title: "Q3 proposal template FINAL v2" }),
    });
    expect(parsed).toMatchObject({
      kind: "pdf",
      title: "Cloud Security Hardening",
      category: "cybersecurity",
    });
    expect(parsed.fields.title.source).not.toContain("metadata");
    expect(parsed).toMatchObject({ price: 6000, contactEmail: "hello@cloudfort.io" });
  });

  it("takes the metadata title of a generated PDF whose first lines hold no heading", async () => {
    const body =
      "we review IAM, network exposure and encryption of your AWS accounts against the CIS benchmarks.\n" +
      "engagement price: 6.000 € for one cloud account, with a written report.";
    const parsed = await parser.parse({
      bytes: await textToPdf(body, { title: "CloudFort: Security Review" }),
    });
    expect(parsed.title).toBe("CloudFort: Security Review");
    expect(parsed.fields.title.source).toBe("metadata: CloudFort: Security Review");
  });

  it("removes running headers and page numbers of a multi-page PDF", async () => {
    const bytes = await textToPdf(BROCHURE, {
      linesPerPage: 2,
      furniture: "CloudFort brochure - confidential",
    });
    const parsed = await parser.parse({ bytes });
    expect(parsed.description).not.toMatch(/confidential|Page \d of/);
    expect(parsed.description).toContain("Engagement price");
  });

  it("reads only the first maxPages pages", async () => {
    const short = createDocumentParser({ maxPages: 2 });
    const text = "Page one\nPage two\nThe third page says secret-word";
    const parsed = await short.parse({ bytes: await textToPdf(text, { linesPerPage: 1 }) });
    expect(parsed.description).not.toContain("secret-word");
    await short.close();
  });
});

describe("refused documents", () => {
  it.each([
    ["an empty file", new Uint8Array(0), /empty/],
    ["unknown binary data", Uint8Array.of(0x00, 0x01, 0x02, 0x9f, 0x00, 0x10), /not valid UTF-8|binary/],
    ["a ZIP (docx) file", Uint8Array.of(0x50, 0x4b, 0x03, 0x04, 0x14, 0x00), /ZIP/],
    ["invalid UTF-8", Uint8Array.of(0x48, 0x69, 0xff, 0xfe, 0x21), /UTF-8/],
    ["a corrupt PDF", utf8("%PDF-1.7\n1 0 obj << /Type /Catalog >> garbage"), /PDF is corrupt/],
    [
      "a corrupt PNG header",
      Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0),
      /PNG header is corrupt/,
    ],
  ])("400 for %s", async (_, bytes, message) => {
    expect(await failure(bytes)).toMatchObject({
      code: "unsupported_document",
      message: expect.stringMatching(message),
    });
  });

  it("400 for an encrypted PDF", async () => {
    expect(await failure(await encryptedPdf())).toMatchObject({
      code: "unsupported_document",
      message: expect.stringMatching(/encrypted/),
    });
  });

  it("413 over maxBytes, before anything is read", async () => {
    const small = createDocumentParser({ maxBytes: 100 });
    expect(await failure(utf8("x".repeat(101)), small)).toMatchObject({ code: "payload_too_large" });
  });

  it.each([
    ["PNG", pngHeader(20_000, 20_000)],
    ["JPEG", jpegHeader(65_000, 65_000)],
    ["WebP", webpHeader(16_000, 16_000)],
  ])("413 for a %s declaring too many pixels, before decoding", async (_, bytes) => {
    expect(await failure(bytes)).toMatchObject({
      code: "payload_too_large",
      message: expect.stringMatching(/megapixels/),
    });
  });

  it("413 for a PDF whose streams inflate past the bound (a decompression bomb), before pdf.js reads it", async () => {
    const guarded = createDocumentParser({ maxPdfInflateBytes: 1024 * 1024 });
    expect(await failure(await deflateBombPdf(16 * 1024 * 1024), guarded)).toMatchObject({
      code: "payload_too_large",
      message: expect.stringMatching(/inflates past 1 MiB/),
    });
  });

  // Walking a billion claimed pages would take hours: the test's timeout is the bound.
  it("bounds a PDF whose page tree claims a billion pages: pdf.js counts the real ones", {
    timeout: 20_000,
  }, async () => {
    const parsed = await parser.parse({ bytes: await hugePageCountPdf(1_000_000_000) });
    expect(parsed.description).toContain("huge claim");
  });

  it("422 for a PDF over the page bound, before any page is read", async () => {
    const bounded = createDocumentParser({ maxDeclaredPages: 5 });
    const bytes = await textToPdf("one\ntwo\nthree\nfour\nfive\nsix", { linesPerPage: 1 });
    expect(await failure(bytes, bounded)).toMatchObject({
      code: "document_unreadable",
      message: expect.stringMatching(/declares 6 pages/),
    });
  });

  it("422 for a PDF that cannot be read within the time bound", async () => {
    const hasty = createDocumentParser({ parseTimeoutMs: 1 });
    expect(await failure(await textToPdf(BROCHURE.repeat(40)), hasty)).toMatchObject({
      code: "document_unreadable",
    });
  });
});

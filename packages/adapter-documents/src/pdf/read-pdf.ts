import { MarketplaceError } from "@psm/core";
import { getDocumentProxy } from "unpdf";
import { MAX_INPUT_CHARS } from "../extract/normalize.js";

/** An open pdf.js document. */
export type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;

/** The text layer of the first pages of a PDF and its title metadata. */
export interface PdfText {
  pages: string[];
  title: string | null;
  pageCount: number;
}

/** Characters kept from one page: what pdf.js returns is bounded like any input. */
const MAX_PAGE_CHARS = 100_000;

/** The error for a PDF pdf.js fails on; MarketplaceErrors (bounds) pass through unchanged. */
export function corruptPdf(cause: unknown): MarketplaceError {
  if (cause instanceof MarketplaceError) return cause;
  return new MarketplaceError(
    "unsupported_document",
    "Unsupported document: the PDF is corrupt and cannot be read",
    {
      cause,
    },
  );
}

/**
 * Opens a PDF with pdf.js (through unpdf). Corrupt files and encrypted ones, including those
 * that open without a password, are refused with `unsupported_document`.
 */
export async function openPdf(bytes: Uint8Array, maxPixels: number): Promise<PdfDocument> {
  let pdf: PdfDocument;
  try {
    // A copy: pdf.js may take over the buffer it is handed. maxImageSize keeps it from
    // decoding images past the pixel bound.
    pdf = await getDocumentProxy(bytes.slice(), { maxImageSize: maxPixels, verbosity: 0 });
  } catch (error) {
    const name = error instanceof Error ? error.name : "";
    if (name === "PasswordException") {
      throw new MarketplaceError(
        "unsupported_document",
        "Unsupported document: the PDF is encrypted (password-protected)",
      );
    }
    throw corruptPdf(error);
  }
  const { info } = await pdf.getMetadata().catch(() => ({ info: {} }));
  if (typeof info === "object" && info !== null && Reflect.get(info, "EncryptFilterName")) {
    await pdf.loadingTask.destroy();
    throw new MarketplaceError("unsupported_document", "Unsupported document: the PDF is encrypted");
  }
  return pdf;
}

/**
 * Reads the text layer of the first `maxPages` pages. A PDF that declares more than
 * `maxDeclaredPages` pages is refused (422) before any page is read.
 */
export async function readPdfText(
  pdf: PdfDocument,
  maxPages: number,
  maxDeclaredPages: number,
): Promise<PdfText> {
  const pageCount = pdf.numPages;
  if (!Number.isInteger(pageCount) || pageCount < 1) {
    throw new MarketplaceError("unsupported_document", "Unsupported document: the PDF has no pages");
  }
  if (pageCount > maxDeclaredPages) {
    throw new MarketplaceError(
      "document_unreadable",
      `The PDF declares ${pageCount} pages; documents over ${maxDeclaredPages} pages are not read`,
    );
  }
  const { info } = await pdf.getMetadata();
  const rawTitle: unknown = typeof info === "object" && info !== null ? Reflect.get(info, "Title") : null;
  const title = typeof rawTitle === "string" ? rawTitle.slice(0, 1000) : null;
  const pages: string[] = [];
  let total = 0;
  for (let n = 1; n <= Math.min(pageCount, maxPages) && total < MAX_INPUT_CHARS; n++) {
    const page = await pdf.getPage(n);
    const content = await page.getTextContent();
    let text = "";
    for (const item of content.items) {
      if (!("str" in item)) continue;
      text += item.str + (item.hasEOL ? "\n" : "");
      if (text.length > MAX_PAGE_CHARS) break;
    }
    pages.push(text.slice(0, MAX_PAGE_CHARS));
    total += text.length;
    page.cleanup();
  }
  return { pages, title, pageCount };
}

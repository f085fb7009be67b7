import type { Category } from "../domain/category.js";
import type { PriceUnit } from "../domain/listing.js";

/** One extracted field with how sure the extractor is and the text it came from. */
export interface ExtractedField<T> {
  value: T;
  /** 0..1 */
  confidence: number;
  /** The snippet of the document the value came from (bounded), or null. */
  source: string | null;
}

/** What a document parser extracts to pre-fill a listing. */
export interface ParsedDocument {
  title: string;
  description: string;
  category: Category;
  price: number | null;
  /** What the price buys, when the text says so ("per hour", "/day", "monthly retainer"); else fixed. */
  priceUnit: PriceUnit;
  contactEmail: string | null;
  fields: {
    title: ExtractedField<string>;
    description: ExtractedField<string>;
    category: ExtractedField<Category>;
    price: ExtractedField<number | null>;
    priceUnit: ExtractedField<PriceUnit>;
    contactEmail: ExtractedField<string | null>;
  };
  /** The detected type: pdf, png, jpeg, webp or text. */
  kind: DocumentKind;
}

export type DocumentKind = "pdf" | "png" | "jpeg" | "webp" | "text";

/** An uploaded file. The type is decided from `bytes`, never from name or declared type. */
export interface DocumentInput {
  bytes: Uint8Array;
  filename?: string | undefined;
  declaredType?: string | undefined;
  /**
   * Who sent it (an opaque id, the same for every request of one account), so that a parser can
   * bound the work of one caller (one OCR job at a time); absent, only the parser's own bounds apply.
   */
  caller?: string | undefined;
}

/**
 * Extracts listing fields from a document. Throws MarketplaceError:
 * `unsupported_document` (400: unknown type, empty, corrupt, encrypted),
 * `payload_too_large` (413), `document_unreadable` (422: over a time or page bound),
 * `document_parser_busy` (503 with retryAfter: every worker busy, or the caller's own OCR job still running).
 */
export interface DocumentParser {
  parse(input: DocumentInput): Promise<ParsedDocument>;
  close?(): Promise<void>;
}

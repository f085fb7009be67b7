import type { ParsedDocument } from "@psm/core";
import { classifyCategory } from "./category.js";
import { extractDescription } from "./description.js";
import { extractEmail } from "./email.js";
import { removeFurniture } from "./furniture.js";
import { MAX_INPUT_CHARS, normalizeText } from "./normalize.js";
import { extractOffer } from "./price.js";
import { extractTitle } from "./title.js";

/** The extracted fields, without the document kind. */
export type ExtractedFields = Omit<ParsedDocument, "kind">;

/** What the extractors read: the text of each page and, for PDFs, the title metadata. */
export interface ExtractionInput {
  pages: readonly string[];
  metaTitle?: string | null;
  /** 0..1: how sure OCR was; every confidence is scaled by it. Default 1 (a text layer). */
  readConfidence?: number;
}

/** True when the pages hold any words at all (a PDF with no text layer has none). */
export function hasText(pages: readonly string[]): boolean {
  let letters = 0;
  for (const page of pages) letters += (page.match(/\p{L}/gu) ?? []).length;
  return letters >= 3;
}

/**
 * The heuristic extractor: normalizes and bounds the pages, removes page furniture, and runs
 * the title, description, category, price (with its unit) and contact-email rules over the result.
 */
export function extractFields(input: ExtractionInput): ExtractedFields {
  let budget = MAX_INPUT_CHARS;
  const pages = input.pages.map((page) => {
    const text = normalizeText(page, Math.max(0, budget));
    budget -= text.length;
    return text;
  });
  const cleaned = removeFurniture(pages);
  const bodyLines = cleaned.flat();
  const { field: title, line: titleLine } = extractTitle(bodyLines, input.metaTitle);
  let description = extractDescription(cleaned, titleLine);
  if (description.value.length === 0)
    description = { value: title.value, confidence: 0.2, source: title.source };
  const fullText = pages.join("\n");
  // The description lacks the title line; the title is scored within the text and again alone.
  const category = classifyCategory(title.value, `${title.value}\n${description.value}`);
  const { price, unit: priceUnit } = extractOffer(fullText);
  const contactEmail = extractEmail(fullText);
  const read = Math.max(0, Math.min(1, input.readConfidence ?? 1));
  const scale = <T>(field: { value: T; confidence: number; source: string | null }) => ({
    ...field,
    confidence: Math.round(field.confidence * read * 100) / 100,
  });
  return {
    title: title.value,
    description: description.value,
    category: category.value,
    price: price.value,
    priceUnit: priceUnit.value,
    contactEmail: contactEmail.value,
    fields: {
      title: scale(title),
      description: scale(description),
      category: scale(category),
      price: scale(price),
      priceUnit: scale(priceUnit),
      contactEmail: scale(contactEmail),
    },
  };
}

import type { DocumentInput, DocumentParser, ParsedDocument } from "../../ports/document-parser.js";

/** A DocumentParser that records what it was given. */
export interface StubDocumentParser extends DocumentParser {
  readonly inputs: DocumentInput[];
}

/**
 * A parser that answers every document with one fixed result. Top-level
 * values in `result` also fill the matching `fields`, unless `fields` is given.
 */
export function createStubDocumentParser(result: Partial<ParsedDocument> = {}): StubDocumentParser {
  const title = result.title ?? "Data platform audit";
  const description = result.description ?? "A two-week review of your data pipelines and dashboards.";
  const category = result.category ?? "data-analytics";
  const price = result.price === undefined ? 4800 : result.price;
  const priceUnit = result.priceUnit ?? "fixed";
  const contactEmail = result.contactEmail === undefined ? "sales@example.com" : result.contactEmail;
  const parsed: ParsedDocument = {
    title,
    description,
    category,
    price,
    priceUnit,
    contactEmail,
    kind: result.kind ?? "text",
    fields: result.fields ?? {
      title: { value: title, confidence: 0.9, source: title },
      description: { value: description, confidence: 0.8, source: description },
      category: { value: category, confidence: 0.7, source: null },
      price: {
        value: price,
        confidence: price === null ? 0 : 0.6,
        source: price === null ? null : String(price),
      },
      priceUnit: { value: priceUnit, confidence: price === null ? 0 : 0.6, source: null },
      contactEmail: {
        value: contactEmail,
        confidence: contactEmail === null ? 0 : 0.95,
        source: contactEmail,
      },
    },
  };
  const inputs: DocumentInput[] = [];
  return {
    inputs,
    async parse(input: DocumentInput) {
      inputs.push(input);
      return structuredClone(parsed);
    },
  };
}

import {
  type ClosableDocumentParser,
  createDocumentParser,
  type DocumentParserOptions,
} from "@psm/adapter-documents";
import { afterAll } from "vitest";

/** The real parser of @psm/adapter-documents for the calling describe block (or file), closed after it. */
export function useDocumentParser(options?: DocumentParserOptions): ClosableDocumentParser {
  const parser = createDocumentParser(options);
  afterAll(() => parser.close());
  return parser;
}

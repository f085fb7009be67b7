/** @psm/adapter-documents: the offline DocumentParser (PDF text, image OCR, field extraction). */
export {
  type ClosableDocumentParser,
  createDocumentParser,
  type ParserInternals,
} from "./document-parser.js";
export {
  CATEGORY_VOCABULARY,
  type CategoryVocabulary,
  DEFAULT_CATEGORY,
} from "./extract/category-vocabulary.js";
export { type ExtractedFields, type ExtractionInput, extractFields } from "./extract/extract-fields.js";
export type { AiExtractorOptions, DocumentParserOptions } from "./options.js";
export { encodeGrayPng } from "./png-encode.js";

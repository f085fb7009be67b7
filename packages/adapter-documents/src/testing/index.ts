/** Hostile documents for tests: hand-written PDFs (bombs in every spelling) and super-linear text shapes. */
export {
  BOMB_SPELLINGS,
  type BombSpelling,
  bombPdf,
  lzwBomb,
  onePage,
  streamKeywordFlood,
} from "./hostile-pdfs.js";
export { HOSTILE_TEXTS } from "./hostile-texts.js";
export { type PdfLayout, type PdfObjectSource, writePdf } from "./pdf-writer.js";

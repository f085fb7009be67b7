import { PDFDocument, type PDFFont, StandardFonts } from "pdf-lib";

/** How a text is laid out as a PDF: title metadata, and lines per page (to get several pages). */
export interface PdfOptions {
  title?: string;
  linesPerPage?: number;
  /** A running header and a "Page n of m" footer on every page: page furniture to be removed. */
  furniture?: string;
}

function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const out: string[] = [];
  for (const paragraph of text.split("\n")) {
    let line = "";
    for (const word of paragraph.split(" ")) {
      const candidate = line.length === 0 ? word : `${line} ${word}`;
      if (font.widthOfTextAtSize(candidate, size) > width && line.length > 0) {
        out.push(line);
        line = word;
      } else {
        line = candidate;
      }
    }
    out.push(line);
  }
  return out;
}

/** Writes `text` into an A4 PDF with a real text layer (Helvetica), as a word processor would. */
export async function textToPdf(text: string, options: PdfOptions = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  if (options.title !== undefined) doc.setTitle(options.title);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const lines = wrap(text, font, 11, 495);
  const perPage = options.linesPerPage ?? 48;
  const pages = Math.max(1, Math.ceil(lines.length / perPage));
  for (let p = 0; p < pages; p++) {
    const page = doc.addPage([595, 842]);
    if (options.furniture !== undefined) {
      page.drawText(options.furniture, { x: 50, y: 810, size: 8, font });
      page.drawText(`Page ${p + 1} of ${pages}`, { x: 270, y: 30, size: 8, font });
    }
    lines.slice(p * perPage, (p + 1) * perPage).forEach((line, i) => {
      page.drawText(line, { x: 50, y: 780 - i * 15, size: 11, font });
    });
  }
  return doc.save();
}

/** Puts an image on a page with no text layer: what a scanner produces. */
export async function imageToPdf(png: Uint8Array): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const image = await doc.embedPng(png);
  const page = doc.addPage([image.width, image.height]);
  page.drawImage(image, { x: 0, y: 0, width: image.width, height: image.height });
  return doc.save();
}

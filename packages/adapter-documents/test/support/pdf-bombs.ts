import { deflateSync } from "node:zlib";
import { PDFDict, PDFDocument, PDFHexString, PDFName, PDFNumber, PDFRawStream, StandardFonts } from "pdf-lib";

async function onePage(text: string): Promise<PDFDocument> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([595, 842]).drawText(text, { x: 50, y: 780, size: 12, font });
  return doc;
}

/**
 * A PDF with a standard-security /Encrypt dictionary whose password check fails, as a
 * password-protected file does when opened without its password. pdf-lib cannot encrypt, so
 * the dictionary is written by hand.
 */
export async function encryptedPdf(): Promise<Uint8Array> {
  const doc = await onePage("Secret offer");
  const encrypt = doc.context.obj({ Filter: "Standard", V: 1, R: 2, Length: 40, P: -3904 });
  encrypt.set(PDFName.of("O"), PDFHexString.of("7a".repeat(32)));
  encrypt.set(PDFName.of("U"), PDFHexString.of("3c".repeat(32)));
  const id = PDFHexString.of("0123456789abcdef0123456789abcdef");
  doc.context.trailerInfo.Encrypt = doc.context.register(encrypt);
  doc.context.trailerInfo.ID = doc.context.obj([id, id]);
  return doc.save({ useObjectStreams: false });
}

/** A one-page PDF whose page tree claims `count` pages: a page-count bomb. */
export async function hugePageCountPdf(count: number): Promise<Uint8Array> {
  const doc = await onePage("Tiny document, huge claim");
  doc.catalog.lookup(PDFName.of("Pages"), PDFDict).set(PDFName.of("Count"), PDFNumber.of(count));
  return doc.save({ useObjectStreams: false });
}

/**
 * A PDF whose one content stream is `inflatedBytes` of spaces deflated (`layers` times): a
 * decompression bomb that pdf.js would inflate in full on the event loop.
 */
export async function deflateBombPdf(inflatedBytes: number, layers = 1): Promise<Uint8Array> {
  const raw = Buffer.alloc(inflatedBytes, 0x20);
  Buffer.from("BT /F1 12 Tf 50 700 Td (Bomb) Tj ET").copy(raw, inflatedBytes - 40);
  let data: Uint8Array = raw;
  for (let i = 0; i < layers; i++) data = deflateSync(data, { level: 9 });
  const doc = await PDFDocument.create();
  const filter = layers === 1 ? "FlateDecode" : new Array<string>(layers).fill("FlateDecode");
  const stream = PDFRawStream.of(doc.context.obj({ Filter: filter, Length: data.length }), data);
  doc.addPage().node.set(PDFName.of("Contents"), doc.context.register(stream));
  return doc.save({ useObjectStreams: false });
}

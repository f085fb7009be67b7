/**
 * Hostile documents, written by hand so the attacks need no PDF library: a
 * page-tree bomb, a text flood and an image header claiming a huge size.
 */

/** Escapes text for a PDF literal string. */
const literal = (text: string) => `(${text.replace(/[\\()]/g, (ch) => `\\${ch}`)})`;

/**
 * A PDF whose pages each show `lines` of text, followed by `blankPages` empty
 * pages (a page tree that is really that large: pdf.js recounts a tree whose
 * /Count merely lies), with an optional Info /Title.
 */
export function makePdf(options: {
  pages: string[][];
  blankPages?: number;
  title?: string;
}): Uint8Array<ArrayBuffer> {
  const objects: string[] = [];
  const add = (body: string) => objects.push(body);
  const blank = options.blankPages ?? 0;
  const firstPage = 4;
  const textKids = options.pages.map((_, i) => firstPage + 2 * i);
  const firstBlank = firstPage + 2 * options.pages.length;
  const blankKids = Array.from({ length: blank }, (_, i) => firstBlank + i);
  add("<< /Type /Catalog /Pages 2 0 R >>");
  const kids = [...textKids, ...blankKids].map((n) => `${n} 0 R`).join(" ");
  add(`<< /Type /Pages /Kids [${kids}] /Count ${textKids.length + blank} >>`);
  add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
  for (const [i, lines] of options.pages.entries()) {
    const content = `BT /F1 8 Tf 10 TL 20 800 Td ${lines.map((line) => `${literal(line)} Tj T*`).join(" ")} ET`;
    add(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents ${firstPage + 2 * i + 1} 0 R >>`,
    );
    add(`<< /Length ${Buffer.byteLength(content, "latin1")} >>\nstream\n${content}\nendstream`);
  }
  for (let i = 0; i < blank; i++) add("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 10 10] >>");
  const info = options.title === undefined ? null : objects.length + 1;
  if (options.title !== undefined) add(`<< /Title ${literal(options.title)} >>`);

  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  for (const [i, body] of objects.entries()) {
    offsets.push(Buffer.byteLength(out, "latin1"));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  }
  const xref = Buffer.byteLength(out, "latin1");
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, "0")} 00000 n \n`;
  const infoRef = info === null ? "" : ` /Info ${info} 0 R`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R${infoRef} >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(out, "latin1"));
}

/** A PNG signature and IHDR claiming `width` × `height`, with no pixel data at all. */
export function pngHeader(width: number, height: number): Uint8Array<ArrayBuffer> {
  const bytes = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes, 0);
  bytes.writeUInt32BE(13, 8);
  bytes.write("IHDR", 12, "latin1");
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  bytes.writeUInt8(8, 24); // bit depth
  return new Uint8Array(bytes);
}

/** A multipart form with one `file` field, as POST /api/parse-pdf takes it. */
export function uploadForm(bytes: Uint8Array<ArrayBuffer> | string, name: string, type: string): FormData {
  const form = new FormData();
  form.set("file", new File([bytes], name, { type }));
  return form;
}

import { deflateSync } from "node:zlib";

/** One object of a hand-written PDF: its value as PDF source, and stream data when it is a stream. */
export interface PdfObjectSource {
  num: number;
  /** The value (`<< /Type /Page ... >>`, `/FlateDecode`, `42`); a stream's dictionary without /Length. */
  value: string;
  /** Stream data, written raw after `stream`; /Length is added to the dictionary. */
  data?: Uint8Array;
  /** Writes /Length as a reference to a separate object instead of directly. */
  indirectLength?: boolean;
}

/** How the file is laid out. */
export interface PdfLayout {
  /** Object number of the catalog (default 1). */
  root?: number;
  /** Objects stored in a Flate-compressed object stream; they need a cross-reference stream. */
  compressed?: PdfObjectSource[];
}

const latin1 = (text: string) => Buffer.from(text, "latin1");

/**
 * Writes a PDF by hand, byte for byte, so that tests can spell things as an attacker would
 * (escaped names, indirect filters, object streams) where a PDF library would normalise them.
 * With `compressed` objects the cross-reference is a stream (PDF 1.5), else a classic table.
 */
export function writePdf(objects: PdfObjectSource[], layout: PdfLayout = {}): Uint8Array<ArrayBuffer> {
  const parts: Buffer[] = [latin1("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")];
  let offset = parts[0]?.length ?? 0;
  const offsets = new Map<number, number>();
  const put = (buffer: Buffer) => {
    parts.push(buffer);
    offset += buffer.length;
  };
  let next = Math.max(0, ...objects.map((o) => o.num), ...(layout.compressed ?? []).map((o) => o.num)) + 1;
  const all = [...objects];
  const placement = new Map<number, [number, number]>();
  if (layout.compressed !== undefined && layout.compressed.length > 0) {
    const stm = next++;
    let header = "";
    let body = "";
    for (const [i, o] of layout.compressed.entries()) {
      header += `${o.num} ${body.length} `;
      body += `${o.value}\n`;
      placement.set(o.num, [stm, i]);
    }
    const raw = latin1(header + body);
    all.push({
      num: stm,
      value: `<< /Type /ObjStm /N ${layout.compressed.length} /First ${header.length} /Filter /FlateDecode >>`,
      data: deflateSync(raw),
    });
  }
  for (const o of all) {
    offsets.set(o.num, offset);
    if (o.data === undefined) {
      put(latin1(`${o.num} 0 obj\n${o.value}\nendobj\n`));
      continue;
    }
    const lengthNum = o.indirectLength ? next++ : null;
    const length = lengthNum === null ? `${o.data.length}` : `${lengthNum} 0 R`;
    const dict = o.value.replace(/>>\s*$/, ` /Length ${length} >>`);
    put(
      Buffer.concat([latin1(`${o.num} 0 obj\n${dict}\nstream\n`), o.data, latin1("\nendstream\nendobj\n")]),
    );
    if (lengthNum !== null) {
      offsets.set(lengthNum, offset);
      put(latin1(`${lengthNum} 0 obj\n${o.data.length}\nendobj\n`));
    }
  }
  const root = layout.root ?? 1;
  const size = next + 1;
  const xrefAt = offset;
  if (placement.size === 0) {
    let table = `xref\n0 ${size}\n0000000000 65535 f \n`;
    for (let n = 1; n < size; n++) {
      const at = offsets.get(n);
      table += at === undefined ? "0000000000 65535 f \n" : `${String(at).padStart(10, "0")} 00000 n \n`;
    }
    put(latin1(`${table}trailer\n<< /Size ${size} /Root ${root} 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`));
  } else {
    // Entries of 1 + 4 + 2 bytes: type 0 (free), 1 (offset) or 2 (object stream, index).
    const xrefNum = next;
    offsets.set(xrefNum, xrefAt);
    const rows = Buffer.alloc(size * 7);
    for (let n = 0; n < size; n++) {
      const inStream = placement.get(n);
      const at = offsets.get(n);
      if (inStream !== undefined) {
        rows.writeUInt8(2, n * 7);
        rows.writeUInt32BE(inStream[0], n * 7 + 1);
        rows.writeUInt16BE(inStream[1], n * 7 + 5);
      } else if (at !== undefined) {
        rows.writeUInt8(1, n * 7);
        rows.writeUInt32BE(at, n * 7 + 1);
      }
    }
    const dict = `<< /Type /XRef /Size ${size} /W [1 4 2] /Root ${root} 0 R /Length ${rows.length} >>`;
    put(
      Buffer.concat([latin1(`${xrefNum} 0 obj\n${dict}\nstream\n`), rows, latin1("\nendstream\nendobj\n")]),
    );
    put(latin1(`startxref\n${xrefAt}\n%%EOF\n`));
  }
  return new Uint8Array(Buffer.concat(parts));
}

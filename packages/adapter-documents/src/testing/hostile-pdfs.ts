import { constants, createBrotliCompress, createDeflate, deflateSync } from "node:zlib";
import { type PdfObjectSource, writePdf } from "./pdf-writer.js";

const TEXT = "BT /F1 12 Tf 50 700 Td (Bomb) Tj ET\n";

/** Every way the tests spell a compressed page: the filter and where its name lives. */
export const BOMB_SPELLINGS = [
  "direct",
  "abbreviated",
  "escaped",
  "indirect",
  "array",
  "indirect-in-array",
  "chain",
  "f-key",
  "object-stream",
  "lzw",
  "brotli",
  "runlength",
  "predictor-chain",
] as const;
/** One spelling of BOMB_SPELLINGS. */
export type BombSpelling = (typeof BOMB_SPELLINGS)[number];

/**
 * A page's content compressed as it is made: a line of text, then spaces up to `size` bytes, fed
 * to zlib in 1 MiB pieces so that a bomb claiming a gibibyte costs the test no gibibyte.
 */
async function compressedContent(size: number, kind: "flate" | "brotli"): Promise<Buffer> {
  const stream =
    kind === "flate"
      ? createDeflate({ level: 9 })
      : createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 4 } });
  const chunks: Buffer[] = [];
  stream.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise((resolve, reject) => {
    stream.on("end", resolve);
    stream.on("error", reject);
  });
  const text = Buffer.from(TEXT, "latin1");
  const spaces = Buffer.alloc(1024 * 1024, 0x20);
  stream.write(text);
  for (let left = size - text.length; left > 0; left -= spaces.length) {
    if (!stream.write(spaces.subarray(0, Math.min(left, spaces.length))))
      await new Promise((resolve) => stream.once("drain", resolve));
  }
  stream.end();
  await done;
  return Buffer.concat(chunks);
}

/**
 * LZW codes for pdf.js's decoder: `prefix` as literals, then codes that each add one space to
 * the previous run, then the longest run (~3800 bytes) again and again: about 2500:1.
 */
export function lzwBomb(size: number, prefix = ""): Uint8Array {
  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  const write = (code: number, length: number) => {
    for (let i = length - 1; i >= 0; i--) {
      acc = (acc << 1) | ((code >> i) & 1);
      if (++bits === 8) {
        out.push(acc);
        acc = bits = 0;
      }
    }
  };
  let nextCode = 258;
  let codeLength = 9;
  let first = true;
  const emit = (code: number) => {
    write(code, codeLength);
    if (first) {
      first = false;
      return;
    }
    nextCode++;
    if (((nextCode + 1) & nextCode) === 0) codeLength = Math.min(Math.floor(Math.log2(nextCode + 1)) + 1, 12);
  };
  for (const byte of Buffer.from(`${prefix} `, "latin1")) emit(byte);
  let produced = prefix.length + 1;
  let run = 1;
  while (nextCode < 4096 && produced < size) {
    run++;
    produced += run;
    emit(nextCode);
  }
  while (produced < size) {
    produced += run;
    emit(4095);
  }
  write(257, codeLength);
  if (bits > 0) out.push(acc << (8 - bits));
  return Uint8Array.from(out);
}

/** RunLengthDecode data: `prefix` as a literal run, then 128 spaces every two bytes (64:1, this filter's best). */
function runLength(size: number, prefix: string): Buffer {
  const literal = Buffer.from(prefix.slice(0, 128), "latin1");
  const runs = Buffer.alloc(2 * Math.ceil(size / 128), Buffer.from([129, 0x20]));
  return Buffer.concat([Buffer.from([literal.length - 1]), literal, runs, Buffer.from([128])]);
}

/**
 * A one-page PDF whose content stream decodes to `inflated` bytes of spaces (a line of text
 * first), its compression written as `spelling`. Small on disk, huge once decoded: what pdf.js
 * would inflate in full if nothing stopped it.
 */
export async function bombPdf(
  inflated: number,
  spelling: BombSpelling = "direct",
): Promise<Uint8Array<ArrayBuffer>> {
  const flate = (data: Uint8Array) => deflateSync(data, { level: 9 });
  const extra: PdfObjectSource[] = [];
  const compressed: PdfObjectSource[] = [];
  let dict = "<< /Filter /FlateDecode >>";
  let data: Uint8Array =
    spelling === "lzw" || spelling === "runlength" || spelling === "brotli"
      ? new Uint8Array(0)
      : await compressedContent(inflated, "flate");
  switch (spelling) {
    case "abbreviated":
      dict = "<< /Filter /Fl >>";
      break;
    case "escaped":
      dict = "<< /F#69lter /F#6cate#44ecode >>";
      break;
    case "indirect":
      dict = "<< /Filter 9 0 R >>";
      extra.push({ num: 9, value: "/FlateDecode" });
      break;
    case "array":
      dict = "<< /Filter [/FlateDecode] >>";
      break;
    case "indirect-in-array":
      dict = "<< /Filter [9 0 R] >>";
      extra.push({ num: 9, value: "/FlateDecode" });
      break;
    case "chain":
      data = Buffer.from(`${Buffer.from(flate(data)).toString("hex")}>`, "latin1");
      dict = "<< /Filter [/ASCIIHexDecode /FlateDecode /FlateDecode] >>";
      break;
    case "f-key":
      dict = "<< /F /FlateDecode >>";
      break;
    case "object-stream":
      dict = "<< /Filter 9 0 R /DecodeParms 10 0 R >>";
      compressed.push({ num: 9, value: "/FlateDecode" }, { num: 10, value: "<< /Columns 1 >>" });
      break;
    case "lzw":
      dict = "<< /Filter /LZWDecode >>";
      data = lzwBomb(inflated, TEXT);
      break;
    case "brotli":
      dict = "<< /Filter /BrotliDecode >>";
      data = await compressedContent(inflated, "brotli");
      break;
    case "runlength":
      dict = "<< /Filter /RunLengthDecode >>";
      data = runLength(inflated, TEXT);
      break;
    case "predictor-chain": {
      // A PNG predictor on the inner layer: the outer Flate sees the bytes only once it is undone.
      const inner = data;
      const rows = Buffer.alloc(inner.length * 2);
      for (let i = 0; i < inner.length; i++) rows[2 * i + 1] = inner[i] ?? 0;
      data = flate(rows);
      dict = "<< /Filter [/FlateDecode /FlateDecode] /DecodeParms [<< /Predictor 10 /Columns 1 >> null] >>";
      break;
    }
    default:
      break;
  }
  return onePage({ num: 4, value: dict, data }, [...extra], compressed);
}

/** A catalog, a page tree and one page showing `contents` in Helvetica. */
export function onePage(
  contents: PdfObjectSource,
  extra: PdfObjectSource[] = [],
  compressed: PdfObjectSource[] = [],
): Uint8Array<ArrayBuffer> {
  const objects: PdfObjectSource[] = [
    { num: 1, value: "<< /Type /Catalog /Pages 2 0 R >>" },
    { num: 2, value: "<< /Type /Pages /Kids [3 0 R] /Count 1 >>" },
    {
      num: 3,
      value: `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents ${contents.num} 0 R >>`,
    },
    contents,
    { num: 5, value: "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>" },
    ...extra,
  ];
  return writePdf(objects, { compressed });
}

/** `%PDF-` then `stream\nendstream\n` repeated to `size` bytes: quadratic for a guard that searches backwards from each. */
export function streamKeywordFlood(size: number): Uint8Array<ArrayBuffer> {
  const unit = "stream\nendstream\n";
  return new Uint8Array(Buffer.from(`%PDF-1.4\n${unit.repeat(Math.ceil(size / unit.length))}`, "latin1"));
}

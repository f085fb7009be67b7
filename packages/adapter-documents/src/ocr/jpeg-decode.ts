import { MarketplaceError } from "@psm/core";
import { readImageSize } from "../image-size.js";
import { largestPageImage } from "../pdf/page-images.js";
import { openPdf } from "../pdf/read-pdf.js";
import type { GrayImage } from "./downscale.js";

const COLOUR_SPACES: Record<number, string> = { 1: "/DeviceGray", 3: "/DeviceRGB", 4: "/DeviceCMYK" };

/** A one-page PDF painting the JPEG, unchanged, as a DCTDecode image over the whole page. */
function wrapInPdf(jpeg: Uint8Array, width: number, height: number, space: string): Uint8Array {
  const draw = `q ${width} 0 0 ${height} 0 0 cm /Im0 Do Q`;
  const parts: (string | Uint8Array)[] = [];
  const offsets: number[] = [];
  let length = 0;
  const add = (part: string | Uint8Array) => {
    parts.push(part);
    length += typeof part === "string" ? Buffer.byteLength(part, "latin1") : part.length;
  };
  const object = (n: number, ...body: (string | Uint8Array)[]) => {
    offsets[n] = length;
    add(`${n} 0 obj\n`);
    for (const part of body) add(part);
    add("\nendobj\n");
  };
  add("%PDF-1.4\n");
  object(1, "<< /Type /Catalog /Pages 2 0 R >>");
  object(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>");
  object(
    3,
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${width} ${height}] /Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>`,
  );
  object(
    4,
    `<< /Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace ${space} /BitsPerComponent 8 /Filter /DCTDecode /Length ${jpeg.length} >>\nstream\n`,
    jpeg,
    "\nendstream",
  );
  object(5, `<< /Length ${draw.length} >>\nstream\n${draw}\nendstream`);
  const xref = length;
  add(
    `xref\n0 6\n0000000000 65535 f \n${offsets
      .slice(1)
      .map((o) => `${String(o).padStart(10, "0")} 00000 n \n`)
      .join("")}`,
  );
  add(`trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  // A plain Uint8Array: pdf.js refuses a Buffer.
  return new Uint8Array(
    Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p, "latin1") : p))),
  );
}

/**
 * Decodes a JPEG to grayscale with pdf.js's decoder (the one scanned PDFs already go through),
 * by painting it, unchanged, on a one-page PDF: no second image library. The caller has checked
 * the declared size against the pixel bound, which pdf.js enforces again.
 */
export async function decodeJpegGray(
  jpeg: Uint8Array,
  width: number,
  height: number,
  maxPixels: number,
): Promise<GrayImage> {
  const space = COLOUR_SPACES[readImageSize(jpeg, "jpeg")?.components ?? 0];
  const undecodable = () => new MarketplaceError("unsupported_document", "The image could not be decoded");
  if (space === undefined) throw undecodable();
  const pdf = await openPdf(wrapInPdf(jpeg, width, height, space), maxPixels).catch(() =>
    Promise.reject(undecodable()),
  );
  try {
    const image = await largestPageImage(pdf, 1).catch(() => null);
    if (image === null) throw undecodable();
    return image;
  } finally {
    await pdf.loadingTask.destroy().catch(() => {});
  }
}

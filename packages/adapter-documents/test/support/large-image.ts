import { decodePngGray } from "../../src/ocr/png-decode.js";
import { encodeGrayPng } from "../../src/png-encode.js";
import { renderTextPng } from "./render-text.js";

/** A security flyer's lines, printed into images by the OCR tests. */
export const FLYER = [
  "PENETRATION TESTING",
  "We find vulnerabilities before",
  "attackers do. OWASP based tests.",
  "From $4,500 per application",
  "Contact: security@redline-labs.io",
];

/**
 * A flyer printed at `factor` times the size renderTextPng draws it (each pixel a factor ×
 * factor block): a phone photo's pixel count with the same text. Made by upscaling, since
 * drawing 40 megapixels stroke by stroke would take the test longer than reading them.
 */
export async function largeFlyerPng(lines: readonly string[], factor: number): Promise<Uint8Array> {
  const small = await decodePngGray(renderTextPng(lines), Number.POSITIVE_INFINITY);
  const width = small.width * factor;
  const height = small.height * factor;
  const gray = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const from = Math.floor(y / factor) * small.width;
    const row = y * width;
    for (let x = 0; x < width; x++) gray[row + x] = small.gray[from + Math.floor(x / factor)] ?? 255;
  }
  return encodeGrayPng(width, height, gray);
}

/** Grayscale pixels, row-major, one byte a pixel. */
export interface GrayImage {
  width: number;
  height: number;
  gray: Uint8Array;
}

/** The size of `width` × `height` scaled, aspect kept, to at most `maxPixels` (unchanged when it fits). */
export function budgetedSize(
  width: number,
  height: number,
  maxPixels: number,
): { width: number; height: number } {
  if (width * height <= maxPixels) return { width, height };
  const f = Math.sqrt(maxPixels / (width * height));
  return { width: Math.max(1, Math.floor(width * f)), height: Math.max(1, Math.floor(height * f)) };
}

/** Takes every pixel of a source image once, in any order, and averages them into a smaller one. */
export interface Downscaler {
  add(x: number, y: number, value: number): void;
  result(): GrayImage;
}

/**
 * A box filter from `width` × `height` down to the pixel budget: each source pixel is added to
 * the one output pixel it falls in, so memory is the output's (8 bytes a pixel) whatever the
 * source, and the pixels may arrive in any order (PNG's interlaced passes). Each output pixel's
 * count is known from the two axes, so only sums are kept.
 */
export function createDownscaler(width: number, height: number, maxPixels: number): Downscaler {
  const out = budgetedSize(width, height, maxPixels);
  const column = Uint32Array.from({ length: width }, (_, x) => Math.floor((x * out.width) / width));
  const row = Uint32Array.from({ length: height }, (_, y) => Math.floor((y * out.height) / height));
  const perColumn = new Uint32Array(out.width);
  const perRow = new Uint32Array(out.height);
  for (const c of column) perColumn[c] = (perColumn[c] ?? 0) + 1;
  for (const r of row) perRow[r] = (perRow[r] ?? 0) + 1;
  const sums = new Float64Array(out.width * out.height);
  return {
    add(x, y, value) {
      const at = (row[y] ?? 0) * out.width + (column[x] ?? 0);
      sums[at] = (sums[at] ?? 0) + value;
    },
    result() {
      const gray = new Uint8Array(sums.length);
      for (let y = 0; y < out.height; y++) {
        for (let x = 0; x < out.width; x++) {
          const at = y * out.width + x;
          gray[at] = Math.round((sums[at] ?? 0) / ((perColumn[x] ?? 1) * (perRow[y] ?? 1)));
        }
      }
      return { width: out.width, height: out.height, gray };
    },
  };
}

/** Scales decoded grayscale pixels down to the budget (returned as they are when they fit). */
export function downscaleGray(image: GrayImage, maxPixels: number): GrayImage {
  if (image.width * image.height <= maxPixels) return image;
  const scaler = createDownscaler(image.width, image.height, maxPixels);
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) scaler.add(x, y, image.gray[y * image.width + x] ?? 255);
  }
  return scaler.result();
}

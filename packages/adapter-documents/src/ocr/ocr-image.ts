import { MarketplaceError } from "@psm/core";
import { encodeGrayPng } from "../png-encode.js";
import { downscaleGray, type GrayImage } from "./downscale.js";
import { decodeJpegGray } from "./jpeg-decode.js";
import { decodePngGray } from "./png-decode.js";

/** An image to read: an uploaded file (its declared size already checked), or a scanned page's pixels. */
export type OcrImage =
  | { kind: "png" | "jpeg" | "webp"; bytes: Uint8Array; width: number; height: number }
  | ({ kind: "gray" } & GrayImage);

/**
 * What tesseract is given: at most `maxPixels`, so its memory and time are bounded by the budget
 * rather than by the upload (a 40-megapixel image costs tesseract what a 4-megapixel one does).
 * An upload within the budget goes as it is; a larger PNG or JPEG is decoded here and scaled
 * down; WebP, which nothing here decodes, is refused past the budget (413).
 */
export async function toBudgetedImage(image: OcrImage, maxPixels: number): Promise<Uint8Array> {
  const fits = image.width * image.height <= maxPixels;
  if (image.kind === "gray") {
    const scaled = downscaleGray(image, maxPixels);
    return encodeGrayPng(scaled.width, scaled.height, scaled.gray);
  }
  if (fits) return image.bytes;
  if (image.kind === "webp") {
    throw new MarketplaceError(
      "payload_too_large",
      `The WebP image is ${image.width}×${image.height} pixels; WebP images over ${(maxPixels / 1e6).toFixed(1)} megapixels are not read (PNG and JPEG are scaled down)`,
    );
  }
  const gray =
    image.kind === "png"
      ? await decodePngGray(image.bytes, maxPixels)
      : downscaleGray(
          await decodeJpegGray(image.bytes, image.width, image.height, image.width * image.height),
          maxPixels,
        );
  return encodeGrayPng(gray.width, gray.height, gray.gray);
}

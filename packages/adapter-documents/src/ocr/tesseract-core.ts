import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { gunzipSync } from "node:zlib";

const require = createRequire(import.meta.url);

/** The part of tesseract's C++ API (through tesseract.js-core's Emscripten build) used here. */
interface TessBaseApi {
  Init(dataPath: null, language: string, engineMode: number): number;
  SetImageFile(exifOrientation: number, angle: number): number;
  Recognize(monitor: null): number;
  GetUTF8Text(): string;
  MeanTextConf(): number;
  Clear(): void;
}

interface TessModule {
  FS: { writeFile(path: string, data: Uint8Array): void; unlink(path: string): void };
  TessBaseAPI: new () => TessBaseApi;
}

type TessFactory = (settings: Record<string, unknown>) => Promise<TessModule>;

/** Tesseract's LSTM engine (OEM_LSTM_ONLY), the one the "best int" data holds. */
const LSTM_ONLY = 1;

/**
 * The LSTM-only builds, fastest first. Node ≥ 24 has WebAssembly SIMD and relaxed SIMD; the
 * plainer builds are there for a runtime that refuses to compile the others.
 */
const BUILDS = ["tesseract-core-relaxedsimd-lstm", "tesseract-core-simd-lstm", "tesseract-core-lstm"];

/** Where the English LSTM data ("best int", 2.9 MB gzipped) is, inside node_modules. */
export function englishDataPath(): string {
  return join(
    dirname(require.resolve("@tesseract.js-data/eng/package.json")),
    "4.0.0_best_int",
    "eng.traineddata.gz",
  );
}

/** Thrown by `read` when leptonica cannot decode the image; tesseract itself is unharmed. */
export class UndecodableImage extends Error {}

/** A tesseract ready to read images, one at a time, synchronously. */
export interface Tesseract {
  /**
   * Reads a PNG, JPEG or WebP file's bytes. Throws UndecodableImage when they cannot be decoded;
   * anything else thrown (a trap inside the WebAssembly) leaves this tesseract unusable.
   */
  read(image: Uint8Array): { text: string; confidence: number };
}

/**
 * Loads tesseract's WebAssembly build on the calling thread with the English data, read from
 * node_modules (nothing is fetched or written to disk). tesseract.js would run the same build in
 * a worker thread of its own, a second V8 isolate of about 25 MiB; a document process reads one
 * image at a time and is bounded from outside (its deadline and memory watch kill it), so the
 * thread bought nothing here. The data file is dropped from the in-memory file system once
 * loaded, as is each image once set.
 */
export async function loadTesseract(): Promise<Tesseract> {
  const data = gunzipSync(readFileSync(englishDataPath()));
  const module = await firstThatLoads();
  module.FS.writeFile("/eng.traineddata", data);
  const api = new module.TessBaseAPI();
  const status = api.Init(null, "eng", LSTM_ONLY);
  module.FS.unlink("/eng.traineddata");
  if (status !== 0) throw new Error(`tesseract could not load its English data (status ${status})`);
  return {
    read(image) {
      module.FS.writeFile("/input", image);
      try {
        if (api.SetImageFile(exifOrientation(image), 0) === 1)
          throw new UndecodableImage("tesseract could not decode the image");
      } finally {
        module.FS.unlink("/input");
      }
      try {
        api.Recognize(null);
        return { text: api.GetUTF8Text(), confidence: api.MeanTextConf() };
      } finally {
        api.Clear();
      }
    },
  };
}

async function firstThatLoads(): Promise<TessModule> {
  let failure: unknown;
  for (const build of BUILDS) {
    try {
      const factory = require(`tesseract.js-core/${build}`) as TessFactory;
      // Its progress and log lines would reach the server's stderr between its JSON log lines.
      return await factory({ TesseractProgress() {}, print() {}, printErr() {} });
    } catch (error) {
      failure = error;
    }
  }
  throw new Error("no build of tesseract.js-core loads here", { cause: failure });
}

/**
 * A JPEG's EXIF orientation (1–8) when its first 500 bytes hold it in big-endian order, else 1:
 * what tesseract.js hands SetImageFile, so that photos read as they did through it.
 */
export function exifOrientation(image: Uint8Array): number {
  // Tag 0x0112 (Orientation), type 3 (SHORT), count 1, then the value's high byte 0.
  const tag = [0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00];
  const end = Math.min(image.length, 500) - tag.length;
  for (let i = 0; i < end; i++) {
    if (tag.every((byte, k) => image[i + k] === byte)) {
      const value = image[i + tag.length] ?? 1;
      return value >= 1 && value <= 8 ? value : 1;
    }
  }
  return 1;
}

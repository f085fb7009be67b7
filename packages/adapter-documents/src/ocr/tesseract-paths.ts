import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);

/** Where tesseract.js finds its worker script and English LSTM data, all inside node_modules. */
export interface TesseractPaths {
  /** Folder holding eng.traineddata.gz (the LSTM "best int" model of @tesseract.js-data/eng). */
  langPath: string;
  /** tesseract.js's Node worker script; it loads the wasm core from tesseract.js-core. */
  workerPath: string;
}

/**
 * Resolves the paths from the installed packages. Throws when the language data is missing,
 * because tesseract.js would otherwise try to download it.
 */
export function tesseractPaths(): TesseractPaths {
  const langPath = join(dirname(require.resolve("@tesseract.js-data/eng/package.json")), "4.0.0_best_int");
  const workerPath = join(
    dirname(require.resolve("tesseract.js/package.json")),
    "src/worker-script/node/index.js",
  );
  if (!existsSync(join(langPath, "eng.traineddata.gz"))) {
    throw new Error(`OCR language data not found at ${langPath}; is @tesseract.js-data/eng installed?`);
  }
  if (!existsSync(workerPath)) throw new Error(`tesseract.js worker script not found at ${workerPath}`);
  return { langPath, workerPath };
}

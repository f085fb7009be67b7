/**
 * Loaded with `node --import` before the server (see footprint.test.ts): appends the URL of
 * every file module the process loads, as it loads it, to the file PSM_LOADED_MODULES_FILE names,
 * so a test can tell what the server had loaded by the time it answered a request.
 */
import { appendFileSync } from "node:fs";
import { registerHooks } from "node:module";

const file = process.env.PSM_LOADED_MODULES_FILE;
if (file) {
  registerHooks({
    load(url, context, nextLoad) {
      if (url.startsWith("file:")) appendFileSync(file, `${url}\n`);
      return nextLoad(url, context);
    },
  });
}

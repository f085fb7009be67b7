import { registerHooks } from "node:module";

// Node runs .ts files by stripping types but resolves `./x.js` literally, while
// the sources import their siblings as `.js` (NodeNext). For child processes of
// tests and for the benchmark, fall back to the `.ts` file when the `.js` is absent.
registerHooks({
  resolve(specifier, context, nextResolve) {
    try {
      return nextResolve(specifier, context);
    } catch (error) {
      if (/^\.{1,2}\//.test(specifier) && specifier.endsWith(".js")) {
        return nextResolve(`${specifier.slice(0, -3)}.ts`, context);
      }
      throw error;
    }
  },
});

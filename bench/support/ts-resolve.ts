/**
 * Imported first by every benchmark script: Node runs the TypeScript sources
 * with type stripping, but they import each other with the ".js" names that
 * TypeScript checks and the build emits, so map a missing relative ".js" to
 * its ".ts" source. Modules imported after this one must be loaded with a
 * dynamic import(): static imports are resolved before any code runs.
 */
import { registerHooks } from "node:module";

registerHooks({
  resolve(specifier, context, nextResolve) {
    try {
      return nextResolve(specifier, context);
    } catch (error) {
      if (!/^\.\.?\//.test(specifier) || !specifier.endsWith(".js")) throw error;
      return nextResolve(`${specifier.slice(0, -3)}.ts`, context);
    }
  },
});

import { registerHooks } from "node:module";

let registered = false;

/**
 * Resolves the relative imports between drizzle-orm's own files directly. Node's resolver
 * finds the format of every `.js` file it resolves by reading the package's scope, and doing
 * so parses the package's whole `exports` map again (package_json_reader: the spread of a lazy
 * getter): for drizzle-orm that is 180 KB of JSON for each of the 113 files the storage
 * adapters load, about 175 MB of garbage and 45 % of the server's start (issue 30, footprint).
 * Its ESM files are all `.js` modules of a `"type": "module"` package that import each other
 * by path, so their URL and format are known without looking; anything else takes Node's way.
 */
export function resolveDrizzleDirectly(): void {
  if (registered) return;
  registered = true;
  registerHooks({
    resolve(specifier, context, nextResolve) {
      const parent = context.parentURL;
      if (
        parent?.includes("/node_modules/drizzle-orm/") &&
        parent.endsWith(".js") &&
        /^\.\.?\//.test(specifier) &&
        specifier.endsWith(".js")
      ) {
        return { url: new URL(specifier, parent).href, format: "module", shortCircuit: true };
      }
      return nextResolve(specifier, context);
    },
  });
}

import { registerHooks } from "node:module";

/**
 * Lets a worker thread run this package from its TypeScript sources, as tests and the benchmark
 * do: Node strips the types, but the sources import each other by the `.js` names of the build,
 * and workspace packages must resolve to their `psm-source` export. Without the build there is no
 * other way to start a worker from `src/`; the built `dist/` never calls this.
 */
export function resolveFromSource(): void {
  registerHooks({
    resolve(specifier, context, nextResolve) {
      const conditions = [...(context.conditions ?? []), "psm-source"];
      try {
        return nextResolve(specifier, { ...context, conditions });
      } catch (error) {
        if (!/^\.\.?\//.test(specifier) || !specifier.endsWith(".js")) throw error;
        return nextResolve(`${specifier.slice(0, -3)}.ts`, { ...context, conditions });
      }
    },
  });
}

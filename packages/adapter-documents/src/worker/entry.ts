/**
 * The script a document process (a forked child) starts with. From the build (`dist/worker/entry.js`) it loads the
 * worker at once; from the sources (`src/worker/entry.ts`, in tests and the benchmark) it first
 * teaches Node to resolve the sources. The imports are dynamic so that the hooks come first.
 */
if (import.meta.url.endsWith(".ts")) {
  const hooks: { resolveFromSource(): void } = await import(
    new URL("./source-hooks.ts", import.meta.url).href
  );
  hooks.resolveFromSource();
}
await import("./parse-worker.js");

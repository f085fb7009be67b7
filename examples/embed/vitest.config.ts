import { defineConfig } from "vitest/config";

// The packages come from node_modules exactly as an npm user gets them: no
// source condition, no aliases.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
  },
});

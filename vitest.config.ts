import { defineConfig } from "vitest/config";

// One config over every package. The private "psm-source" export condition points package
// imports at src/*.ts, so tests run without a build.
export default defineConfig({
  resolve: { conditions: ["psm-source"] },
  ssr: { resolve: { conditions: ["psm-source"] } },
  test: {
    include: [
      "packages/*/src/**/*.test.ts",
      "packages/*/test/**/*.test.ts",
      "apps/*/src/**/*.test.ts",
      "apps/*/test/**/*.test.ts",
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    globalSetup: ["./vitest.global-setup.ts"],
    // After the default report, one line per skipped test with its reason.
    reporters: ["default", "./scripts/vitest-skip-reasons.ts"],
  },
});

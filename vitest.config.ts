import { availableParallelism } from "node:os";
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
    // Timeouts catch hangs, never slowness: two test files run at once on CI's 2 cores, each
    // with its servers, PostgreSQL or Chromium, and a test that takes 20 s alone can take 60.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: "forks",
    // One fork per core. Vitest's default leaves one core free, which on CI's 2 cores ran the
    // files one at a time while most waited on a server process, PostgreSQL or Chromium: the
    // suite took 1,655 s there, 1,243 s with two forks (2026-11-29), against a 30-minute CI.
    maxWorkers: availableParallelism(),
    globalSetup: ["./vitest.global-setup.ts"],
    // After the default report, one line per skipped test with its reason.
    reporters: ["default", "./scripts/vitest-skip-reasons.ts"],
  },
});

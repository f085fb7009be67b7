import { spawnSync } from "node:child_process";

// End-to-end tests run the compiled server exactly as `pnpm start` does, so
// build once (incremental: seconds when nothing changed) before any test file.
// A failed build is reported, not fatal: in-process tests need no build, and
// `pnpm typecheck` (run first in CI) is what fails on type errors.
export default function setup(): void {
  const result = spawnSync(process.execPath, ["node_modules/typescript/bin/tsc", "-b"], { encoding: "utf8" });
  if (result.status !== 0) {
    process.stderr.write(
      `tsc -b failed; end-to-end tests use the last build:\n${result.stdout}${result.stderr}\n`,
    );
  }
}

import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { APP_DIR } from "../support/paths.js";
import { childEnv } from "../support/server-process.js";

/** The `psm-server` command, as package.json's "bin" names it (it runs the built dist/bin.js). */
export const PSM_SERVER = join(APP_DIR, "bin/psm-server.js");

/** How one run of the command ended. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `psm-server ...args` (or the command at `bin`) as its own process with
 * `env` only (the runner's DATABASE_URL or TEST_DATABASE_URL must not reach
 * it), in `cwd`. A run that outlives the limit rejects, so a command that
 * hangs fails its test.
 */
export function runCli(
  args: string[],
  env: Record<string, string>,
  cwd: string,
  bin = PSM_SERVER,
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [bin, ...args],
      { env: childEnv(env), cwd, timeout: 20_000, encoding: "utf8" },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== "number") {
          reject(
            new Error(
              `${basename(bin, ".js")} ${args.join(" ")} did not exit by itself: ${error.message}\n${stderr}`,
            ),
          );
          return;
        }
        resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
      },
    );
  });
}

/** The non-empty lines of `text`. */
export function lines(text: string): string[] {
  return text.split("\n").filter((line) => line.trim() !== "");
}

/** A temporary folder per test file; `cleanup` removes every one it made. */
export function tempDirs(): { make(): Promise<string>; cleanup(): Promise<void> } {
  const made: string[] = [];
  return {
    async make() {
      const dir = await mkdtemp(join(tmpdir(), "psm-cli-"));
      made.push(dir);
      return dir;
    },
    async cleanup() {
      await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
    },
  };
}

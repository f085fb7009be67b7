import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const HOOKS = fileURLToPath(new URL("./resolve-ts.ts", import.meta.url));

/** How a child process ended. */
export interface ChildResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

/** Runs a script of this folder in a separate Node process (sources loaded as .ts). */
export function runChild(script: string, args: string[]): Promise<ChildResult> {
  const path = fileURLToPath(new URL(script, import.meta.url));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--conditions=psm-source", "--import", HOOKS, path, ...args], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stderr }));
  });
}

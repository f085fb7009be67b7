import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeDataDir, removeDataDir, runUntilExit } from "../support/server-process.js";

// decisions.md: invalid configuration stops the server at start with one clear
// line naming the variable. Each case is one bad variable on an otherwise good start.
const CASES: Array<[variable: string, value: string]> = [
  ["PORT", "abc"],
  ["DATABASE_URL", "mysql://x"],
  ["JWT_SECRET", "too-short"],
  ["LEGACY_PUBLIC_ENDPOINTS", "maybe"],
  ["LISTING_SLOTS", "personal:lots"],
];

describe("invalid configuration", () => {
  let dataDir = "";
  beforeAll(async () => {
    dataDir = await makeDataDir();
  });
  afterAll(async () => {
    await removeDataDir(dataDir);
  });

  it.concurrent.each(CASES)("%s=%s stops the server with one line naming it", async (variable, value) => {
    const exit = await runUntilExit({ dataDir, env: { [variable]: value } });
    expect(exit.code, exit.stdout + exit.stderr).not.toBe(0);
    expect(exit.code).not.toBeNull();
    const lines = exit.stderr.split("\n").filter((line) => line.trim() !== "");
    expect(lines).toEqual([expect.stringContaining(variable)]);
    expect(exit.stdout).not.toContain("listening");
  });
});

import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { API_VERSION } from "@psm/adapter-http";
import { describe, expect, it } from "vitest";
import { APP_DIR, REPO_ROOT } from "../support/paths.js";

// One version, bumped together: the server, every workspace package and the
// API they serve (API_VERSION, in @psm/operations) never disagree.

/** The package.json of every workspace member, as pnpm-workspace.yaml lists them ("dir/*" or "dir"). */
async function workspaceManifests(): Promise<string[]> {
  const yaml = await readFile(join(REPO_ROOT, "pnpm-workspace.yaml"), "utf8");
  const section = /^packages:\n((?:\s+-.*\n)+)/m.exec(yaml)?.[1] ?? "";
  const globs = [...section.matchAll(/^\s+-\s+["']?([^"'\s]+)["']?/gm)].map((m) => m[1] as string);
  const manifests: string[] = [];
  for (const glob of globs) {
    if (!glob.endsWith("/*")) {
      manifests.push(join(glob, "package.json"));
      continue;
    }
    const parent = glob.slice(0, -2);
    const entries = await readdir(join(REPO_ROOT, parent), { withFileTypes: true });
    const dirs = entries.filter((entry) => entry.isDirectory()).map((entry) => join(parent, entry.name));
    for (const dir of dirs) {
      const listed = await readdir(join(REPO_ROOT, dir));
      if (listed.includes("package.json")) manifests.push(join(dir, "package.json"));
    }
  }
  return manifests.sort();
}

async function manifest(path: string): Promise<{ version?: string; engines?: { node?: string } }> {
  return JSON.parse(await readFile(join(REPO_ROOT, path), "utf8"));
}

describe("one version", () => {
  it("every workspace package.json says API_VERSION", async () => {
    const paths = await workspaceManifests();
    expect(paths).toContain("apps/server/package.json");
    expect(paths).toContain("packages/core/package.json");
    const versions = Object.fromEntries(
      await Promise.all(paths.map(async (p) => [p, (await manifest(p)).version])),
    );
    expect(versions).toEqual(Object.fromEntries(paths.map((p) => [p, API_VERSION])));
  });
});

describe("one Node.js", () => {
  it(".node-version, .nvmrc, every engines field and the commands' check (node-check.ts) name the same minimum", async () => {
    const nodeVersion = (await readFile(join(REPO_ROOT, ".node-version"), "utf8")).trim();
    expect((await readFile(join(REPO_ROOT, ".nvmrc"), "utf8")).trim()).toBe(nodeVersion);

    const paths = ["package.json", ...(await workspaceManifests())];
    for (const path of paths) {
      const engines = (await manifest(path)).engines?.node;
      if (engines !== undefined) expect(engines, path).toBe(`>=${nodeVersion}`);
    }
    expect((await manifest("package.json")).engines?.node).toBe(`>=${nodeVersion}`);

    const bin = await readFile(join(APP_DIR, "src/node-check.ts"), "utf8");
    const major = /NEEDED_MAJOR = (\d+);/.exec(bin)?.[1];
    const minor = /NEEDED_MINOR = (\d+);/.exec(bin)?.[1];
    expect(`${major}.${minor}.0`).toBe(nodeVersion);
  });
});

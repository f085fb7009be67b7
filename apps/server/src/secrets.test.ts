import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadJwtSecret } from "./secrets.js";

describe("loadJwtSecret", () => {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });
  const tempDir = async () => {
    const dir = await mkdtemp(join(tmpdir(), "psm-secret-"));
    dirs.push(dir);
    return dir;
  };

  it("uses the configured secret as is", async () => {
    expect(await loadJwtSecret(await tempDir(), "x".repeat(40))).toBe("x".repeat(40));
  });

  it("generates a secret once, mode 0600, and reuses it", async () => {
    const dir = await tempDir();
    const first = await loadJwtSecret(dir, undefined);
    expect(Buffer.byteLength(first)).toBeGreaterThanOrEqual(32);
    expect((await stat(join(dir, "jwt-secret"))).mode & 0o777).toBe(0o600);
    expect(await loadJwtSecret(dir, undefined)).toBe(first);
    expect((await readFile(join(dir, "jwt-secret"), "utf8")).trim()).toBe(first);
  });

  it("agrees on one secret when two processes start at once", async () => {
    const dir = join(await tempDir(), "nested");
    const [a, b] = await Promise.all([loadJwtSecret(dir, undefined), loadJwtSecret(dir, undefined)]);
    expect(a).toBe(b);
  });

  it("agrees on one secret among many concurrent starts, mode 0600, and leaves no drafts", async () => {
    // Across processes the race is real (the e2e config suite starts several servers on one
    // fresh DATA_DIR, and one once read a file another had created but not filled); the
    // secret is now linked into place whole. In one process this pins the outcome.
    for (let round = 0; round < 5; round++) {
      const dir = join(await tempDir(), "fresh");
      const secrets = await Promise.all(Array.from({ length: 20 }, () => loadJwtSecret(dir, undefined)));
      expect(new Set(secrets).size).toBe(1);
      expect(await readdir(dir)).toEqual(["jwt-secret"]);
      expect((await stat(join(dir, "jwt-secret"))).mode & 0o777).toBe(0o600);
    }
  });

  it("names the file when the kept secret is too short, instead of using it", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, "jwt-secret"), "short\n");
    await expect(loadJwtSecret(dir, undefined)).rejects.toThrow(
      `${join(dir, "jwt-secret")} holds a secret shorter than 32 bytes`,
    );
  });
});

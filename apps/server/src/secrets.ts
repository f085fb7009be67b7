import { randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

const FILE = "jwt-secret";

/**
 * The JWT secret: JWT_SECRET when given, otherwise one generated on first
 * start and kept in DATA_DIR (mode 0600), so tokens survive restarts.
 */
export async function loadJwtSecret(dataDir: string, configured: string | undefined): Promise<string> {
  if (configured !== undefined) return configured;
  const path = join(dataDir, FILE);
  try {
    const existing = (await readFile(path, "utf8")).trim();
    if (Buffer.byteLength(existing) >= 32) return existing;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const secret = randomBytes(48).toString("base64url");
  try {
    // "wx": if another process wrote it first, use theirs.
    await writeFile(path, `${secret}\n`, { mode: 0o600, flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return (await readFile(path, "utf8")).trim();
    throw error;
  }
  await chmod(path, 0o600);
  return secret;
}

import { randomBytes } from "node:crypto";
import { link, mkdir, readFile, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";

const FILE = "jwt-secret";

/**
 * The JWT secret: JWT_SECRET when given, otherwise one generated on first
 * start and kept in DATA_DIR (mode 0600), so tokens survive restarts.
 */
export async function loadJwtSecret(dataDir: string, configured: string | undefined): Promise<string> {
  if (configured !== undefined) return configured;
  const existing = await readJwtSecret(dataDir);
  if (existing !== undefined) return existing;
  const path = join(dataDir, FILE);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const secret = randomBytes(48).toString("base64url");
  // Written whole to a file of this process's own, then linked into place: the
  // link either appears with the complete secret or fails because another
  // process's secret is there, so no process ever reads a half-written file.
  const draft = `${path}.${process.pid}.${randomBytes(6).toString("hex")}`;
  await writeFile(draft, `${secret}\n`, { mode: 0o600, flag: "wx" });
  try {
    await link(draft, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const theirs = (await readFile(path, "utf8")).trim();
    // A file too short to be a secret (emptied, or edited by hand) is not replaced:
    // another process may be about to use it. Say which file, instead of failing
    // later in the token service.
    if (Buffer.byteLength(theirs) < 32) {
      throw new Error(
        `${path} holds a secret shorter than 32 bytes: delete it to have one generated, or set JWT_SECRET`,
      );
    }
    return theirs;
  } finally {
    await unlink(draft);
  }
  return secret;
}

/** The secret kept in DATA_DIR, when one of 32 bytes or more is there; never writes. */
export async function readJwtSecret(dataDir: string): Promise<string | undefined> {
  try {
    const existing = (await readFile(join(dataDir, FILE), "utf8")).trim();
    return Buffer.byteLength(existing) >= 32 ? existing : undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    return undefined;
  }
}

import { closeSync, constants, openSync } from "node:fs";
import { rm, stat } from "node:fs/promises";
import { resolve } from "node:path";
import Database from "better-sqlite3";

/** The copy cannot be made as asked (the target exists): the operator changes the command, not the system. */
export class BackupRefused extends Error {
  override readonly name = "BackupRefused";
}

/** Owner read and write only, as the adapter creates the database: the copy holds the same password hashes. */
const PRIVATE_MODE = 0o600;

/** Pages per step after the first: all of them, see below. */
const ALL_PAGES = 0x7fffffff;

/**
 * Copies the SQLite database `source` to `target` with SQLite's online backup
 * API, through better-sqlite3 (the driver @psm/adapter-sqlite opens it with), so
 * a running server may keep reading and writing. Returns the absolute target.
 */
export async function backupSqlite(source: string, target: string): Promise<string> {
  const destination = resolve(target);
  // Checked before the target is reserved, so a mistyped DATA_DIR leaves no empty copy behind.
  await stat(source).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "ENOENT") throw error;
    throw new Error(`there is no database at ${source}: start the server or run psm-server migrate first`);
  });
  reserve(destination);
  let db: Database.Database | undefined;
  try {
    db = new Database(source, { fileMustExist: true });
    await db.backup(destination, {
      // One step for the whole copy: it reads in one transaction, a consistent
      // snapshot that WAL lets the server write past. Small steps would restart
      // from the first page whenever the server commits between two of them,
      // and a busy server could keep a backup from ever finishing.
      progress: () => ALL_PAGES,
    });
  } catch (error) {
    await rm(destination, { force: true });
    throw error;
  } finally {
    db?.close();
  }
  return destination;
}

/**
 * Creates `path` empty and private, or refuses if anything is there: O_EXCL
 * decides in one step, so no existing file (another backup, the live database
 * itself) is ever overwritten. SQLite takes an empty file for a new database.
 */
function reserve(path: string): void {
  let fd: number;
  try {
    fd = openSync(path, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, PRIVATE_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") {
      throw new BackupRefused(`${path} already exists; choose a new file (a backup never overwrites one)`);
    }
    throw error;
  }
  closeSync(fd);
}

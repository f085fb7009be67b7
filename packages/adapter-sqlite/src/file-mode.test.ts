import { existsSync, statSync, writeFileSync } from "node:fs";
import { buildUser } from "@psm/core/testing";
import { afterAll, describe, expect, it } from "vitest";
import { openSqliteStorage } from "./index.js";
import { openMigrated, removeTempDbs, tempDbFile } from "./test-support/temp-db.js";

afterAll(removeTempDbs);

const modeOf = (path: string) => statSync(path).mode & 0o777;

/** Runs `work` with `mask` as the process umask, restoring the previous one after. */
async function withUmask<T>(mask: number, work: () => Promise<T>): Promise<T> {
  const previous = process.umask(mask);
  try {
    return await work();
  } finally {
    process.umask(previous);
  }
}

describe("database file permissions", () => {
  // 0o000 is the umask that would leave a file SQLite creates itself world-writable (0666 or 0644).
  for (const mask of [0o022, 0o000]) {
    it(`creates the database, -wal and -shm 0600 under umask ${mask.toString(8).padStart(3, "0")}`, async () => {
      const file = tempDbFile();
      await withUmask(mask, async () => {
        const storage = await openMigrated(file);
        await storage.repositories.users.insert(buildUser());
        // While the connection is open, WAL mode keeps both side files.
        for (const path of [file, `${file}-wal`, `${file}-shm`]) {
          expect(existsSync(path), path).toBe(true);
          expect(modeOf(path).toString(8), path).toBe("600");
        }
        await storage.close();
        // Reopened: the side files SQLite deleted at close are created again from the database's mode.
        const again = openSqliteStorage({ file });
        await again.repositories.users.insert(buildUser());
        for (const path of [file, `${file}-wal`, `${file}-shm`])
          expect(modeOf(path).toString(8), path).toBe("600");
        await again.close();
      });
    });
  }

  it("leaves the mode of an existing database file as the operator set it", async () => {
    const file = tempDbFile();
    writeFileSync(file, "", { mode: 0o640 });
    const storage = await withUmask(0o000, () => openMigrated(file));
    await storage.repositories.users.insert(buildUser());
    expect(modeOf(file).toString(8)).toBe("640");
    expect(modeOf(`${file}-wal`).toString(8)).toBe("640");
    await storage.close();
  });

  it("still opens an in-memory database", async () => {
    const storage = await openMigrated(":memory:");
    await storage.repositories.users.insert(buildUser());
    expect(existsSync(":memory:")).toBe(false);
    await storage.close();
  });
});

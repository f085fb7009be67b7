import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openConnection, releaseMemory } from "./connection.js";
import { openSqliteStorage } from "./index.js";

// An idle server hands back the database pages its reads mapped (apps/server heap.ts): what the
// process holds of the file is read from Linux's /proc/self/smaps, as `bench:http` reads its RSS.
const SMAPS = "/proc/self/smaps";

/** KiB of `file` resident through this process's mappings of it. */
function mappedKiB(file: string): number {
  let total = 0;
  let inFile = false;
  for (const line of readFileSync(SMAPS, "utf8").split("\n")) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) inFile = head[1] === file;
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (inFile && rss) total += Number(rss[1]);
  }
  return total;
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), "psm-release-"));
  dirs.push(dir);
  return join(dir, "marketplace.db");
}

describe.skipIf(!existsSync(SMAPS))("releasing memory (Linux: needs /proc/self/smaps)", () => {
  it("unmaps the pages reads mapped, and reads after it map them again and answer the same", () => {
    const file = tempFile();
    const sqlite = openConnection(file);
    try {
      sqlite.exec("create table blobs (id integer primary key, body blob not null)");
      const insert = sqlite.prepare("insert into blobs (body) values (randomblob(4000))");
      sqlite.transaction(() => {
        for (let i = 0; i < 2_000; i++) insert.run();
      })();
      // In WAL mode a read takes pages from the log until a checkpoint moves them to the file.
      sqlite.pragma("wal_checkpoint(TRUNCATE)");
      const read = sqlite.prepare<[], number>("select sum(length(body)) from blobs").pluck();
      expect(read.get()).toBe(8_000_000);
      const mapped = mappedKiB(file);
      expect(mapped).toBeGreaterThan(7_000);

      releaseMemory(sqlite);
      expect(mappedKiB(file)).toBe(0);

      expect(read.get()).toBe(8_000_000);
      expect(mappedKiB(file)).toBeGreaterThan(7_000);
    } finally {
      sqlite.close();
    }
  });

  it("is the storage's releaseMemory, after which it still reads and writes", async () => {
    const storage = openSqliteStorage({ file: tempFile() });
    try {
      await storage.migrate();
      storage.releaseMemory();
      expect(await storage.ping()).toBe(true);
      expect(await storage.repositories.listings.listAll({ limit: 5 })).toEqual([]);
    } finally {
      await storage.close();
      storage.releaseMemory(); // closed: nothing to hand back, and no error
    }
  });
});

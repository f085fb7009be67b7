import { expectBoundedFindAgrees, seedSparse } from "@psm/core/testing";
import { afterAll, describe, expect, it } from "vitest";
import { openConnection } from "./connection.js";
import { openSqliteStorage } from "./index.js";
import { removeTempDbs, tempDbFile } from "./test-support/temp-db.js";
import { SEARCH_INDEXES, searchIndexSegments } from "./testing/index.js";

afterAll(removeTempDbs);

const NOW = new Date("2026-03-01T13:00:00.000Z");

describe("merging the search indexes", () => {
  it("merges each index into one segment a bounded step at a time, and every find answers as before", async () => {
    const file = tempDbFile();
    // A budget of two rows: the finds compared afterwards walk their bounded paths too.
    const storage = openSqliteStorage({ file, searchBudget: 2 });
    await storage.migrate();
    // A second connection reads what the storage's committed: the segments, and whether it wrote.
    const observer = openConnection(file);
    const segments = () => searchIndexSegments(observer);
    const version = () => observer.pragma("data_version", { simple: true }) as number;
    try {
      // Each insert its own commit: one new segment each, which FTS5 merges only four at a time.
      const rows = await seedSparse(storage.repositories, 200);
      const audits = await storage.repositories.listings.search(
        { text: "audit", status: "active", limit: 100 },
        NOW,
      );
      for (const count of segments()) expect(count).toBeGreaterThan(1);

      let steps = 0;
      while (storage.mergeSearchIndexes(1)) {
        steps += 1;
        if (steps > 10_000) throw new Error("the merge never ended");
      }
      // One page a step: two hundred listings' indexes take several.
      expect(steps).toBeGreaterThan(1);
      expect(segments()).toEqual(SEARCH_INDEXES.map(() => 1));

      // Merged, a call writes nothing.
      const before = version();
      expect(storage.mergeSearchIndexes(64)).toBe(false);
      expect(version()).toBe(before);

      await expectBoundedFindAgrees((query, now) => storage.repositories.listings.find(query, now), rows);
      expect(
        await storage.repositories.listings.search({ text: "audit", status: "active", limit: 100 }, NOW),
      ).toEqual(audits);
    } finally {
      observer.close();
      await storage.close();
    }
  });

  it("leaves a transaction it did not open alone, saying there is more to do", async () => {
    const file = tempDbFile();
    const storage = openSqliteStorage({ file });
    await storage.migrate();
    const observer = openConnection(file);
    const segments = () => searchIndexSegments(observer);
    try {
      await seedSparse(storage.repositories, 12);
      const unmerged = segments();
      for (const count of unmerged) expect(count).toBeGreaterThan(1);
      let answer: boolean | undefined;
      // A unit of work holds the connection's transaction across awaits.
      await storage.repositories.unitOfWork.run(async () => {
        answer = storage.mergeSearchIndexes(64);
      });
      expect(answer).toBe(true);
      expect(segments()).toEqual(unmerged);
      while (storage.mergeSearchIndexes(64));
      expect(segments()).toEqual(SEARCH_INDEXES.map(() => 1));
    } finally {
      observer.close();
      await storage.close();
    }
  });
});

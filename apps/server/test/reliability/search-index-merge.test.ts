import { join } from "node:path";
import { openSqliteStorage } from "@psm/adapter-sqlite";
import { openReadOnly, searchIndexSegments } from "@psm/adapter-sqlite/testing";
import { seedSparse } from "@psm/core/testing";
import { describe, expect, it } from "vitest";
import { harnessFor } from "../support/harness.js";
import { arr, client, expectStatus } from "../support/http.js";
import { waitFor } from "../support/wait.js";

/** Segments of each search index in the file, as the server's commits left them. */
function segments(file: string): number[] {
  const db = openReadOnly(file);
  try {
    return searchIndexSegments(db);
  } finally {
    db.close();
  }
}

// A server on SQLite merges each search index into one segment once listing writes are quiet
// (search-index-upkeep.ts): searches read one segment 1.5-2 times faster than several. Its
// segments are counted in the file, read through a second connection.
describe("the SQLite search indexes", () => {
  it("are merged into one segment by a server left quiet, and answer the same searches", async ({
    onTestFinished,
  }) => {
    const h = harnessFor(onTestFinished);
    const dataDir = await h.dataDir();
    const file = join(dataDir, "marketplace.db");
    // Forty listings, each its own commit: several segments in every index.
    const storage = openSqliteStorage({ file });
    await storage.migrate();
    await seedSparse(storage.repositories, 40);
    await storage.close();
    for (const count of segments(file)) expect(count).toBeGreaterThan(1);

    const server = await h.server({ dataDir, stopWith: "SIGKILL" });
    const api = client(server.url);
    const before = await Promise.all([
      api.get("/api/listings?q=audit&limit=50"),
      api.get("/api/listings?search=audit&limit=50"),
    ]);
    for (const answer of before) expectStatus(answer, 200);

    // The server merges nothing in its first 30 s (UPKEEP.startDelayMs); the limit bounds a hang.
    await waitFor(
      "every search index merged into one segment",
      () => (segments(file).every((count) => count === 1) ? true : undefined),
      { timeoutMs: 150_000 },
    );
    const after = await Promise.all([
      api.get("/api/listings?q=audit&limit=50"),
      api.get("/api/listings?search=audit&limit=50"),
    ]);
    expect(after.map((answer) => answer.body)).toEqual(before.map((answer) => answer.body));
    // Four titles and eight descriptions of the forty say "audit".
    expect(arr(before[0]?.body.items)).toHaveLength(8);
    expect(arr(before[1]?.body.items)).toHaveLength(4);
  });
});

import { buildListing, buildUser, testId } from "@psm/core/testing";
import { afterAll, describe, expect, it } from "vitest";
import { openConnection } from "../connection.js";
import { openMigrated, removeTempDbs, tempDbFile } from "../test-support/temp-db.js";

afterAll(removeTempDbs);

/** A migrated database with one author and `count` listings of theirs. */
async function seeded(count: number) {
  const file = tempDbFile();
  const storage = await openMigrated(file);
  const user = buildUser();
  await storage.repositories.users.insert(user);
  const listings = Array.from({ length: count }, () => buildListing({ userId: user.id }));
  for (const listing of listings) {
    await storage.repositories.listings.insertWithinSlots(listing, { maxSlots: 10, now: new Date() });
  }
  return { file, storage, listings };
}

describe("view increments (group commit)", () => {
  it("commits the views of one turn together, counts each, and tells unknown ids apart", async () => {
    const {
      file,
      storage,
      listings: [a, b],
    } = await seeded(2);
    if (!a || !b) throw new Error("seeded two listings");
    // Commits are counted on a second connection: data_version moves once per commit by another one.
    const observer = openConnection(file);
    const version = () => observer.pragma("data_version", { simple: true }) as number;
    const before = version();

    const views = [
      ...Array.from({ length: 120 }, () => storage.repositories.listings.incrementViews(a.id)),
      ...Array.from({ length: 30 }, () => storage.repositories.listings.incrementViews(b.id)),
      storage.repositories.listings.incrementViews(testId()),
    ];
    const found = await Promise.all(views);

    expect(found.slice(0, 150).every((hit) => hit)).toBe(true);
    expect(found[150]).toBe(false);
    expect((await storage.repositories.listings.findById(a.id))?.views).toBe(120);
    expect((await storage.repositories.listings.findById(b.id))?.views).toBe(30);
    expect(version() - before).toBe(1);
    observer.close();
    await storage.close();
  });

  it("a failed commit rejects every view in it with a MarketplaceError, and counts none", async () => {
    const {
      file,
      storage,
      listings: [listing],
    } = await seeded(1);
    if (!listing) throw new Error("seeded one listing");
    // A trigger that aborts the update fails the commit as a full disk or an I/O error would.
    const other = openConnection(file);
    other.exec(
      "CREATE TRIGGER refuse_views BEFORE UPDATE OF views ON listings BEGIN SELECT RAISE(ABORT, 'no views'); END",
    );
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () => storage.repositories.listings.incrementViews(listing.id)),
    );
    for (const result of results) {
      expect(result.status).toBe("rejected");
      expect(result.status === "rejected" ? result.reason : null).toMatchObject({ code: "internal_error" });
    }
    other.exec("DROP TRIGGER refuse_views");
    expect((await storage.repositories.listings.findById(listing.id))?.views).toBe(0);
    other.close();
    await storage.close();
  });
});

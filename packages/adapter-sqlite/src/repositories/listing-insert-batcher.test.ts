import { buildListing, buildUser } from "@psm/core/testing";
import { afterAll, describe, expect, it } from "vitest";
import { openConnection } from "../connection.js";
import { openMigrated, removeTempDbs, tempDbFile } from "../test-support/temp-db.js";

afterAll(removeTempDbs);

async function withAuthor() {
  const file = tempDbFile();
  const storage = await openMigrated(file);
  const user = buildUser();
  await storage.repositories.users.insert(user);
  return { file, storage, user };
}

describe("listing inserts (group commit)", () => {
  it("commits the inserts of one turn together and keeps the slot limit exact", async () => {
    const { file, storage, user } = await withAuthor();
    const observer = openConnection(file);
    const version = () => observer.pragma("data_version", { simple: true }) as number;
    const before = version();
    const guard = { maxSlots: 7, now: new Date() };
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        storage.repositories.listings.insertWithinSlots(buildListing({ userId: user.id }), guard),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(7);
    expect(results.slice(0, 7).every(Boolean)).toBe(true); // arrival order decides
    expect(await storage.repositories.listings.countActiveByUser(user.id, guard.now)).toBe(7);
    expect(version() - before).toBe(1);
    observer.close();
    await storage.close();
  });

  it("rejects a failing member alone; a failed commit rejects every member", async () => {
    const { file, storage, user } = await withAuthor();
    const guard = { maxSlots: 100, now: new Date() };
    const taken = buildListing({ userId: user.id });
    await storage.repositories.listings.insertWithinSlots(taken, guard);
    const fresh = buildListing({ userId: user.id });
    const [duplicate, ok] = await Promise.allSettled([
      storage.repositories.listings.insertWithinSlots(taken, guard),
      storage.repositories.listings.insertWithinSlots(fresh, guard),
    ]);
    expect(duplicate?.status).toBe("rejected");
    expect(ok).toEqual({ status: "fulfilled", value: true });
    expect(await storage.repositories.listings.findById(fresh.id)).not.toBeNull();

    const other = openConnection(file);
    other.exec(
      "CREATE TRIGGER refuse BEFORE INSERT ON listings WHEN NEW.title = 'refused' BEGIN SELECT RAISE(ROLLBACK, 'no'); END",
    );
    const members = [buildListing({ userId: user.id }), buildListing({ userId: user.id, title: "refused" })];
    const settled = await Promise.allSettled(
      members.map((l) => storage.repositories.listings.insertWithinSlots(l, guard)),
    );
    expect(settled.map((s) => s.status)).toEqual(["rejected", "rejected"]);
    expect(await storage.repositories.listings.findById(members[0]?.id ?? "")).toBeNull();
    other.exec("DROP TRIGGER refuse");
    other.close();
    await storage.close();
  });

  it("inside a unit of work, inserts join the unit and roll back with it", async () => {
    const { storage, user } = await withAuthor();
    const guard = { maxSlots: 1, now: new Date() };
    const first = buildListing({ userId: user.id });
    const second = buildListing({ userId: user.id });
    const outcome = await storage.repositories.unitOfWork.run(async (repos) => [
      await repos.listings.insertWithinSlots(first, guard),
      await repos.listings.insertWithinSlots(second, guard),
    ]);
    expect(outcome).toEqual([true, false]);
    const undone = buildListing({ userId: user.id });
    await expect(
      storage.repositories.unitOfWork.run(async (repos) => {
        await repos.listings.insertWithinSlots(undone, { ...guard, maxSlots: 5 });
        throw new Error("abandon");
      }),
    ).rejects.toThrow("abandon");
    expect(await storage.repositories.listings.findById(undone.id)).toBeNull();
    expect(await storage.repositories.listings.findById(first.id)).not.toBeNull();
    await storage.close();
  });
});

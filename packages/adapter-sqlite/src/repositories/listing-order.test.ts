import { buildListing, buildUser } from "@psm/core/testing";
import Database from "better-sqlite3";
import { afterAll, expect, it } from "vitest";
import { openMigrated, removeTempDbs, tempDbFile } from "../test-support/temp-db.js";
import { createListingWriter } from "./listing-order.js";

afterAll(removeTempDbs);

const NOW = new Date("2026-03-01T12:00:00.000Z");

it("assigns seq in id order, shifting a run when a gap is used up", async () => {
  const file = tempDbFile();
  const storage = await openMigrated(file);
  const user = buildUser({ createdAt: NOW });
  await storage.repositories.users.insert(user);
  await storage.close();

  const sqlite = new Database(file);
  const writer = createListingWriter(sqlite);
  const insert = (id: string) => writer.insert(buildListing({ id, userId: user.id, createdAt: NOW }));
  const seqOf = sqlite.prepare<[string], number>("SELECT seq FROM listings WHERE id = ?").pluck();
  // Ids that carry no UUIDv7 time, so every seq comes from bisecting a gap.
  sqlite.transaction(() => {
    insert("m");
    insert("n");
    insert("o");
  })();
  const nBefore = seqOf.get("n");
  // Each id sits just above the last and below "n": the gap halves until it is gone.
  let id = "m";
  sqlite.transaction(() => {
    for (let i = 0; i < 40; i++) {
      id = `${id}1`;
      insert(id);
    }
    for (const low of ["l", "k", "j", "a", "0"]) insert(low);
  })();
  expect(seqOf.get("n")).toBeGreaterThan(nBefore ?? Number.POSITIVE_INFINITY);
  const bySeq = sqlite.prepare<[], string>("SELECT id FROM listings ORDER BY seq").pluck().all();
  const byId = sqlite.prepare<[], string>("SELECT id FROM listings ORDER BY id").pluck().all();
  expect(bySeq).toEqual(byId);
  sqlite.exec("INSERT INTO listings_fts (listings_fts) VALUES ('integrity-check')");
  sqlite.close();
});

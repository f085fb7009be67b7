import { afterAll, expect, it } from "vitest";
import { databaseBefore } from "../test/database-before.js";
import { openMigrated, removeTempDbs } from "./test-support/temp-db.js";

afterAll(removeTempDbs);

const T0 = Date.parse("2026-03-01T12:00:00.000Z");
const HOUR = 3_600_000;

it("upgrade a 1.2 database: a kept answer becomes a result the API replays, a running claim stays running", async () => {
  // The migrations of 1.2 (everything before 0005), applied as 1.2 applied them.
  const { file, sqlite } = databaseBefore("0005_idempotency-result");
  const body = '{"listing":{"title":"Ünïcode \\"quoted\\" ✓"}}';
  const insert = sqlite.prepare(
    "INSERT INTO idempotency_keys (id, fingerprint, owner, lease_until, expires_at, status, body) VALUES (?, 'fp', 'o', ?, ?, ?, ?)",
  );
  insert.run("answered", T0 + HOUR, T0 + 24 * HOUR, 201, body);
  insert.run("running", T0 + HOUR, T0 + 24 * HOUR, null, null);
  sqlite.close();

  const storage = await openMigrated(file);
  try {
    const store = storage.repositories.idempotency;
    const answered = await store.find("answered", new Date(T0));
    // The form adapter-http encodes (registry/idempotency.ts), so the API decodes it as its own.
    expect(JSON.parse(answered?.result ?? "null")).toEqual({ status: 201, body });
    expect(await store.find("running", new Date(T0))).toMatchObject({ result: null });
    expect(await store.complete("running", "o", "done")).toBe(true);
  } finally {
    await storage.close();
  }
});

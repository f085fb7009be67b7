import { readFileSync } from "node:fs";
import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import { expect, it } from "vitest";
import { describePostgres } from "../test/hooks.js";
import { connect } from "./connection.js";
import { openPostgresStorage } from "./index.js";
import { MIGRATIONS_FOLDER } from "./migrations-folder.js";
import { createTestDatabase, testDatabaseUrl } from "./testing/index.js";

const T0 = new Date("2026-03-01T12:00:00.000Z");
const HOUR = 3_600_000;
const at = (ms: number) => new Date(T0.getTime() + ms).toISOString();

describePostgres("postgres idempotency migration", () => {
  it("upgrades a 1.2 database: a kept answer becomes a result the API replays, a running claim stays running", async () => {
    const old = await createTestDatabase(testDatabaseUrl()!);
    const folder = await mkdtemp(join(tmpdir(), "psm-pg-migrations-"));
    const { sql, db } = connect(old.url, 1);
    try {
      // The migrations of 1.2 (everything before 0008), applied as 1.2 applied them.
      await cp(MIGRATIONS_FOLDER, folder, { recursive: true });
      const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8")) as {
        entries: { tag: string }[];
      };
      const cut = journal.entries.findIndex((entry) => entry.tag === "0008_idempotency_result");
      expect(cut).toBeGreaterThan(0);
      await writeFile(
        join(folder, "meta", "_journal.json"),
        JSON.stringify({ ...journal, entries: journal.entries.slice(0, cut) }),
      );
      await migrate(db, { migrationsFolder: folder });
      const body = '{"listing":{"title":"Ünïcode \\"quoted\\" ✓"}}';
      await sql`insert into idempotency_keys (id, fingerprint, owner, lease_until, expires_at, status, body)
        values ('answered', 'fp', 'o', ${at(HOUR)}, ${at(24 * HOUR)}, 201, ${body}),
               ('running', 'fp', 'o', ${at(HOUR)}, ${at(24 * HOUR)}, null, null)`;

      const storage = openPostgresStorage({ url: old.url });
      try {
        await storage.migrate();
        const store = storage.repositories.idempotency;
        const answered = await store.find("answered", T0);
        // The form adapter-http encodes (registry/idempotency.ts), so the API decodes it as its own.
        expect(JSON.parse(answered?.result ?? "null")).toEqual({ status: 201, body });
        expect(await store.find("running", T0)).toMatchObject({ result: null });
        expect(await store.complete("running", "o", "done")).toBe(true);
      } finally {
        await storage.close();
      }
    } finally {
      await sql.end({ timeout: 5 });
      await rm(folder, { recursive: true, force: true });
      await old.drop();
    }
  });
});

import { expect, it } from "vitest";
import { databaseBefore } from "../test/database-before.js";
import { describePostgres } from "../test/hooks.js";
import { openPostgresStorage } from "./index.js";

const T0 = new Date("2026-03-01T12:00:00.000Z");
const HOUR = 3_600_000;
const at = (ms: number) => new Date(T0.getTime() + ms).toISOString();

describePostgres("postgres idempotency migration", () => {
  it("upgrades a 1.2 database: a kept answer becomes a result the API replays, a running claim stays running", async () => {
    // The migrations of 1.2 (everything before 0008), applied as 1.2 applied them.
    const old = await databaseBefore("0008_idempotency_result");
    try {
      const body = '{"listing":{"title":"Ünïcode \\"quoted\\" ✓"}}';
      await old.sql`insert into idempotency_keys (id, fingerprint, owner, lease_until, expires_at, status, body)
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
      await old.drop();
    }
  });
});

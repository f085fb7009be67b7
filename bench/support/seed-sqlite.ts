/** Seeds a fresh SQLite database file before the server opens it. */
import { openSqliteStorage } from "@psm/adapter-sqlite";
import { createListingWriter } from "@psm/adapter-sqlite/internal/listing-writer";
import { authorIds, generateListings } from "./listing-data.js";
import { openSqlite } from "./modules.js";

/** What the seed leaves for the benchmark to use. */
export interface SeedResult {
  /** Every 100th listing id: point reads rotate over them. */
  sampleIds: string[];
  ms: number;
}

/**
 * Migrates through the adapter, then writes authors and listings directly in
 * big transactions (one fsync each, not one per row). Listings go through the
 * adapter's own writer, so `seq` keeps mirroring id order as the FTS walk needs.
 */
export async function seedSqlite(file: string, listings: number): Promise<SeedResult> {
  const began = performance.now();
  const storage = openSqliteStorage({ file });
  await storage.migrate();
  await storage.close();

  const db = openSqlite(file);
  // A crash here only loses a seed the next run redoes, so skip the per-commit sync.
  db.pragma("synchronous = OFF");
  const now = Date.now();
  const authors = authorIds(Math.max(10, Math.floor(listings / 50)), now);
  const addUser = db.prepare(
    `INSERT INTO users (id, email, display_name, is_admin, account_type, token_version, created_at)
     VALUES (?, ?, ?, 0, 'business', 0, ?)`,
  );
  db.transaction(() => {
    for (const [i, id] of authors.entries()) addUser.run(id, `author${i}@bench.example`, `Author ${i}`, now);
  })();

  const writer = createListingWriter(db);
  const sampleIds: string[] = [];
  const rows = generateListings(listings, authors, now);
  for (let done = 0; done < listings; ) {
    db.transaction(() => {
      for (let k = 0; k < 20_000 && done < listings; k++, done++) {
        const { value } = rows.next();
        if (!value) return;
        if (done % 100 === 0) sampleIds.push(value.id);
        writer.insert(value);
      }
    })();
  }
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
  return { sampleIds, ms: performance.now() - began };
}

/** A fresh PostgreSQL database for a benchmark or soak run, optionally seeded. */

import { openPostgresStorage } from "@psm/adapter-postgres";
import { connect } from "@psm/adapter-postgres/internal/connection";
import { createTestDatabase, type TestDatabase } from "@psm/adapter-postgres/testing";
import { authorIds, generateListings } from "./listing-data.js";
import type { SeedResult } from "./seed-sqlite.js";

/** The server URL to create databases on: TEST_DATABASE_URL, else a postgres DATABASE_URL. */
export function postgresAdminUrl(): string | undefined {
  for (const value of [process.env.TEST_DATABASE_URL, process.env.DATABASE_URL]) {
    if (value && /^postgres(ql)?:\/\//i.test(value)) return value;
  }
  return undefined;
}

/** Creates and migrates a database of this run's own; `drop()` removes it. */
export async function freshPostgres(adminUrl: string, prefix: string): Promise<TestDatabase> {
  const database = await createTestDatabase(adminUrl, prefix);
  const storage = openPostgresStorage({ url: database.url });
  try {
    await storage.migrate();
  } finally {
    await storage.close();
  }
  return database;
}

const BATCH = 10_000;

/**
 * Bulk-inserts the same authors and listings as the SQLite seed: each batch
 * is one statement over a JSON document (jsonb_to_recordset), so 100k rows
 * take ten round trips and the server does the parsing.
 */
export async function seedPostgres(url: string, listings: number): Promise<SeedResult> {
  const began = performance.now();
  const { sql } = connect(url, 1);
  try {
    const now = Date.now();
    const authors = authorIds(Math.max(10, Math.floor(listings / 50)), now);
    const users = authors.map((id, i) => ({ id, email: `author${i}@bench.example`, name: `Author ${i}` }));
    await sql`
      insert into users (id, email, display_name, account_type, created_at)
      select id, email, name, 'business', now()
      from jsonb_to_recordset(${JSON.stringify(users)}::jsonb) as r(id uuid, email text, name text)`;

    const sampleIds: string[] = [];
    let batch: object[] = [];
    let done = 0;
    const flush = async () => {
      await sql`
        insert into listings (id, user_id, title, title_folded, description, price, category, condition,
          images, structured_data, status, contact_email, expires_at, views, created_at)
        select id, user_id, title, title_folded, description, price, category, condition,
          images, structured_data, status, null, expires_at, 0, created_at
        from jsonb_to_recordset(${JSON.stringify(batch)}::jsonb) as r(id uuid, user_id uuid, title text,
          title_folded text, description text, price double precision, category text, condition text,
          images jsonb, structured_data jsonb, status text, expires_at timestamptz, created_at timestamptz)`;
      batch = [];
    };
    for (const listing of generateListings(listings, authors, now)) {
      if (done++ % 100 === 0) sampleIds.push(listing.id);
      batch.push({
        id: listing.id,
        user_id: listing.userId,
        title: listing.title,
        title_folded: listing.title.toLowerCase(),
        description: listing.description,
        price: listing.price,
        category: listing.category,
        condition: listing.condition,
        images: listing.images,
        structured_data: listing.structuredData,
        status: listing.status,
        expires_at: listing.expiresAt?.toISOString() ?? null,
        created_at: listing.createdAt.toISOString(),
      });
      if (batch.length === BATCH) await flush();
    }
    if (batch.length > 0) await flush();
    await sql`analyze`;
    return { sampleIds, ms: performance.now() - began };
  } finally {
    await sql.end({ timeout: 5 });
  }
}

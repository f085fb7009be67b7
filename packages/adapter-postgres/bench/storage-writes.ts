import { CATEGORY_VALUES, createUuidV7Generator, type Storage, webCryptoRandom } from "@psm/core";
import type { Connection } from "../src/connection.js";
import { cell, throughput } from "./measure.js";
import { sampleTitles } from "./seed.js";

/** Inserts (with the GIN indexes on titles as migrated, and with fewer) and view increments. */
export async function benchWrites(storage: Storage, connection: Connection, seeded: number): Promise<void> {
  const { users, listings } = storage.repositories;
  const ids = createUuidV7Generator(webCryptoRandom);
  const authors: string[] = [];
  for (let i = 0; i < 100; i++) {
    const id = ids.newId(new Date());
    authors.push(id);
    await users.insert({
      id,
      email: `inserter-${id}@bench.example`,
      displayName: "Inserter",
      isAdmin: false,
      accountType: "business",
      passwordHash: null,
      tokenVersion: 0,
      emailVerifiedAt: null,
      createdAt: new Date(),
    });
  }
  const count = 10_000;
  // Drawn like the seeded titles (serials far past them): the inserts become the
  // newest rows, which the next size's searches walk first.
  const titles = await sampleTitles(connection.sql, 50_000_000 + seeded, 4 * count);
  const guard = { maxSlots: 1_000_000_000, now: new Date() };
  const insert = (i: number) => {
    const createdAt = new Date();
    return listings.insertWithinSlots(
      {
        id: ids.newId(createdAt),
        title: titles[i]!,
        description: "Inserted by the benchmark",
        price: 99.5,
        priceUnit: "fixed",
        category: CATEGORY_VALUES[i % CATEGORY_VALUES.length]!,
        condition: "new",
        images: [],
        userId: authors[i % authors.length]!,
        structuredData: null,
        status: "active",
        contactEmail: null,
        expiresAt: null,
        views: 0,
        createdAt,
      },
      guard,
    );
  };
  const rates: [string, number][] = [];
  let done = 0;
  const measure = async (label: string) => {
    const from = done;
    rates.push([label, await throughput((i) => insert(from + i), count, 10)]);
    done += count;
  };
  await measure("as migrated");
  const sample = (
    await connection.sql<{ id: string }[]>`select id from listings tablesample system (1) limit 2000`
  ).map((row) => row.id);
  const views = await throughput((i) => listings.incrementViews(sample[i % sample.length]!), count, 10);
  const [grams] = await connection.sql`select 1 from pg_class where relname = 'listings_title_grams_idx'`;
  if (grams !== undefined) {
    // The grams index without its pending list: each title's ~60 grams go straight into the index.
    await connection.sql`alter index listings_title_grams_idx set (fastupdate = off)`;
    await measure("grams index without fast update");
    await connection.sql`drop index listings_title_grams_idx`;
    await measure("trigram index only");
  }
  await connection.sql`drop index listings_title_trgm_idx`;
  await measure("neither GIN index");
  const none = rates.at(-1)![1];
  console.log("insert (slot-checked, 10 callers):");
  for (const [label, rate] of rates) {
    console.log(`  ${cell(label, 34)}${rate.toFixed(0)}/s, cost ratio ${(none / rate).toFixed(2)}x`);
  }
  console.log(`view increment (10 callers): ${views.toFixed(0)}/s`);
}

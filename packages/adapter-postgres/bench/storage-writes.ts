import { CATEGORY_VALUES, createUuidV7Generator, type Storage, webCryptoRandom } from "@psm/core";
import type { Connection } from "../src/connection.js";
import { throughput } from "./measure.js";
import { sampleTitles } from "./seed.js";

/** Inserts (with and without the trigram index) and view increments. */
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
  const titles = await sampleTitles(connection.sql, 50_000_000 + seeded, 2 * count);
  const guard = { maxSlots: 1_000_000_000, now: new Date() };
  const insert = (i: number) => {
    const createdAt = new Date();
    return listings.insertWithinSlots(
      {
        id: ids.newId(createdAt),
        title: titles[i]!,
        description: "Inserted by the benchmark",
        price: 99.5,
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
  const withIndex = await throughput(insert, count, 10);
  const sample = (
    await connection.sql<{ id: string }[]>`select id from listings tablesample system (1) limit 2000`
  ).map((row) => row.id);
  const views = await throughput((i) => listings.incrementViews(sample[i % sample.length]!), count, 10);
  await connection.sql`drop index listings_title_trgm_idx`;
  const withoutIndex = await throughput((i) => insert(count + i), count, 10);
  console.log(
    `insert (slot-checked, 10 callers): ${withIndex.toFixed(0)}/s with the trigram index, ` +
      `${withoutIndex.toFixed(0)}/s without: cost ratio ${(withoutIndex / withIndex).toFixed(2)}x`,
  );
  console.log(`view increment (10 callers): ${views.toFixed(0)}/s`);
}

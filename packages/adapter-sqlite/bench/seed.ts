/** Realistic bulk data for the storage benchmark. */
import { CATEGORY_VALUES, createUuidV7Generator, type Listing, webCryptoRandom } from "@psm/core";
import { seededRandom } from "@psm/core/testing";
import type { Database } from "better-sqlite3";
import { createListingWriter } from "../src/repositories/listing-order.ts";

/** The seeded PRNG of the contract suite, so every run seeds the same data. */
export const prng = seededRandom;

/** Planted once every RARE_EVERY listings: a term with few hits. */
export const RARE_TERM = "zebrafish";
const RARE_EVERY = 50_000;

/**
 * A term in ~0.2% of titles, as PostgreSQL's medium term is: not planted, but
 * two words the Zipf draw below puts side by side that often (2,071 of the
 * 1,022,300 titles a 1M run leaves in its database).
 */
export const MEDIUM_TERM = "consulting bookkeeping";

// Ranked by frequency (Zipf): "consulting" is in about one title in eight.
const WORDS = (
  "consulting software development data cloud strategy marketing design security audit " +
  "analytics support migration platform services engineering training recruitment legal " +
  "finance tax review integration automation mobile web ecommerce backend frontend devops " +
  "infrastructure compliance gdpr risk assessment advisory interim management project agile " +
  "scrum coaching brand content seo campaign social media research prototype workshop " +
  "kubernetes terraform postgres python typescript java rust golang react vue angular " +
  "payroll accounting bookkeeping valuation merger acquisition contract patent trademark " +
  "privacy penetration testing monitoring observability machine learning artificial " +
  "intelligence chatbot vision forecasting dashboard warehouse pipeline etl governance " +
  "quality assurance localisation translation copywriting illustration animation video " +
  "photography usability accessibility onboarding retention pricing sourcing outsourcing " +
  "nearshore offshore freelance senior junior expert certified remote onsite Müller Zürich " +
  "Café Straße Łódź São Paulo 東京 Øresund Ærø Ångström İzmir Ελλάδα Kraków Málaga Genève"
).split(" ");
const WEIGHTS = WORDS.map((_, rank) => 1 / (rank + 1) ** 0.9);
const TOTAL = WEIGHTS.reduce((sum, weight) => sum + weight, 0);

function word(next: () => number): string {
  let target = next() * TOTAL;
  for (let i = 0; i < WORDS.length; i++) {
    target -= WEIGHTS[i] ?? 0;
    if (target <= 0) return WORDS[i] ?? "";
  }
  return WORDS[0] ?? "";
}

function words(next: () => number, n: number): string {
  return Array.from({ length: n }, () => word(next)).join(" ");
}

/** What the measurements need from the seeded data. */
export interface Seeded {
  userIds: string[];
  /** Every 50th listing id, for point reads. */
  sampleIds: string[];
  /** Milliseconds per listing of the bulk insert into the table and its b-tree indexes. */
  msPerRow: number;
  /** Milliseconds of filling both FTS indexes (titles; title and description) afterwards in one ordered pass. */
  ftsMs: number;
}

/** A listing like the seeded ones, at `at`, for `userId`. */
export function makeListing(
  next: () => number,
  id: string,
  userId: string,
  at: number,
  now: number,
): Listing {
  const title = words(next, 3 + Math.floor(next() * 5));
  const roll = next();
  return {
    id,
    title: `${title.charAt(0).toUpperCase()}${title.slice(1)}`,
    description: `${words(next, 30)}.`,
    price: roll < 0.2 ? null : Math.round(next() * 500_000) / 100,
    priceUnit: "fixed",
    category: CATEGORY_VALUES[Math.floor(next() * CATEGORY_VALUES.length)] ?? "cybersecurity",
    condition: "new",
    images: roll < 0.5 ? [] : [`https://img.example.com/${id}.png`],
    userId,
    structuredData: { ai_generated: roll < 0.3, hours: Math.floor(next() * 100) },
    // 85% active, 10% paused, 5% expired; a tenth of the active ones expire later.
    status: roll < 0.1 ? "paused" : "active",
    contactEmail: null,
    expiresAt: roll > 0.95 ? new Date(now - 1000) : roll > 0.85 ? new Date(now + 86_400_000) : null,
    views: 0,
    createdAt: new Date(at),
  };
}

/**
 * Bulk-inserts users and `count` listings over the past year, in transactions
 * of 50k rows. The FTS triggers are off meanwhile and the index is filled
 * after, in one pass in FTS rowid order: rows inserted oldest first hand FTS5
 * falling rowids (-seq), and FTS5 flushes its pending terms whenever a rowid
 * does not rise. (Production writes one listing per transaction, which flushes
 * at each commit anyway; see inserts.ts for both costs.)
 */
export function seed(sqlite: Database, count: number, now: number): Seeded {
  const next = prng(count);
  const ids = createUuidV7Generator(webCryptoRandom);
  const userIds = Array.from({ length: Math.max(10, Math.floor(count / 50)) }, () =>
    ids.newId(new Date(now - 4e10)),
  );
  const addUser = sqlite.prepare(
    "INSERT INTO users (id, email, display_name, is_admin, account_type, token_version, created_at) VALUES (?, ?, ?, 0, 'business', 0, ?)",
  );
  sqlite.transaction(() => {
    for (const [i, id] of userIds.entries()) addUser.run(id, `bench${i}@example.com`, `Bench ${i}`, now);
  })();

  const triggers = sqlite
    .prepare<[], string>(
      `SELECT sql FROM sqlite_master WHERE type = 'trigger'
        AND (name LIKE 'listings_fts_%' OR name LIKE 'listings_text_%' OR name LIKE 'listings_by_category_%')`,
    )
    .pluck()
    .all();
  for (const name of ["insert", "update", "delete"]) {
    sqlite.exec(`DROP TRIGGER listings_fts_after_${name}`);
    sqlite.exec(`DROP TRIGGER listings_text_after_${name}`);
    sqlite.exec(`DROP TRIGGER listings_by_category_after_${name}`);
  }
  const writer = createListingWriter(sqlite);
  const sampleIds: string[] = [];
  const start = now - 365 * 86_400_000;
  const step = (365 * 86_400_000) / count;
  const began = performance.now();
  for (let from = 0; from < count; from += 50_000) {
    sqlite.transaction(() => {
      for (let i = from; i < Math.min(count, from + 50_000); i++) {
        const at = Math.floor(start + i * step);
        const listing = makeListing(
          next,
          ids.newId(new Date(at)),
          userIds[i % userIds.length] ?? "",
          at,
          now,
        );
        if (i % RARE_EVERY === RARE_EVERY - 1) listing.title = `${listing.title} ${RARE_TERM} lab`;
        if (i % 50 === 0) sampleIds.push(listing.id);
        writer.insert(listing);
      }
    })();
  }
  const msPerRow = (performance.now() - began) / count;
  const ftsBegan = performance.now();
  sqlite.exec(
    "INSERT INTO listings_fts (rowid, title_padded) SELECT fts_rowid, title_padded FROM listings_fts_content ORDER BY fts_rowid",
  );
  sqlite.exec(
    "INSERT INTO listings_text (rowid, title, description) SELECT fts_rowid, title, description FROM listings_text_content ORDER BY fts_rowid",
  );
  sqlite.exec(
    "INSERT INTO listings_words_cat (rowid, title, description) SELECT fts_rowid, title, description FROM listings_words_cat_content ORDER BY fts_rowid",
  );
  sqlite.exec(
    "INSERT INTO listings_title_cat (rowid, title) SELECT fts_rowid, title FROM listings_title_cat_content ORDER BY fts_rowid",
  );
  for (const sql of triggers) sqlite.exec(sql);
  return { userIds, sampleIds, msPerRow, ftsMs: performance.now() - ftsBegan };
}

import { mkdirSync, rmSync } from "node:fs";
import { cpus } from "node:os";
import { openPostgresStorage } from "@psm/adapter-postgres";
import { createTestDatabase } from "@psm/adapter-postgres/testing";
import { openSqliteStorage } from "@psm/adapter-sqlite";
import {
  CATEGORY_VALUES,
  createMarketplace,
  createUuidV7Generator,
  type Listing,
  listingMatchKeys,
  newEventId,
  type SavedSearch,
  type Storage,
  systemClock,
  webCryptoRandom,
} from "@psm/core";
import { buildUser, createTestDeps, seededRandom } from "@psm/core/testing";

// The catalogue's words: 30,000 made-up words of 4 to 10 letters, so that prefixes and stems are
// as varied as a real vocabulary's. Listings draw them Zipf-like (a few words are everywhere);
// saved searches draw them evenly (people save specific searches), so a listing matches a few.
const VOCABULARY = 30_000;
const OWNERS = 5_000;

const next = seededRandom(28);
const LETTERS = "abcdefghijklmnopqrstuvwxyz";
const words = Array.from({ length: VOCABULARY }, () =>
  Array.from({ length: 4 + Math.floor(next() * 7) }, () => LETTERS[Math.floor(next() * 26)]).join(""),
);
const zipf = () => words[Math.min(VOCABULARY - 1, Math.floor(VOCABULARY ** next()) - 1)] ?? "word";
// With `disjoint`, saved searches use words no listing holds (each made-up word with a letter
// more): they share the listings' prefixes, so the lookup finds candidates, but none matches. What
// is left is the cost of finding and checking candidates, without writing matches.
let suffix = "";
const even = () => `${words[Math.floor(next() * VOCABULARY)] ?? "word"}${suffix}`;
const category = () => CATEGORY_VALUES[Math.floor(next() * CATEGORY_VALUES.length)] ?? "cybersecurity";

function savedSearch(id: string, userId: string, at: Date): SavedSearch {
  const roll = next();
  const base = {
    id,
    userId,
    name: "bench",
    q: null,
    search: null,
    category: null,
    minPrice: null,
    maxPrice: null,
    createdAt: at,
  };
  if (roll < 0.001) return { ...base, category: category() };
  if (roll < 0.0015) return { ...base, minPrice: 100, maxPrice: 100 + Math.floor(next() * 5000) };
  if (roll < 0.1) return { ...base, search: even().slice(0, 4 + Math.floor(next() * 3)) };
  const q = next() < 0.4 ? even() : `${even()} ${even()}`;
  return {
    ...base,
    q,
    category: next() < 0.2 ? category() : null,
    maxPrice: next() < 0.15 ? 1000 + Math.floor(next() * 9000) : null,
  };
}

function listing(id: string, userId: string, at: Date): Listing {
  const text = (n: number) => Array.from({ length: n }, zipf).join(" ");
  return {
    id,
    title: text(4 + Math.floor(next() * 4)),
    description: `${text(30)}.`,
    price: next() < 0.2 ? null : Math.round(next() * 10_000),
    priceUnit: "fixed",
    category: category(),
    condition: "new",
    images: [],
    userId,
    structuredData: null,
    status: "active",
    contactEmail: null,
    expiresAt: null,
    views: 0,
    createdAt: at,
  };
}

async function measure(
  name: string,
  storage: Storage,
  options: { searches: number; listings: number; rounds: number; batch: number | undefined },
) {
  await storage.migrate();
  const repos = storage.repositories;
  const ids = createUuidV7Generator(webCryptoRandom);
  const now = new Date();
  const owners = Array.from({ length: OWNERS }, () => buildUser({ createdAt: now }));
  const author = buildUser({ createdAt: now });
  for (const user of [...owners, author]) await repos.users.insert(user);
  const started = performance.now();
  const perOwner = Math.ceil(options.searches / OWNERS);
  const batches: SavedSearch[][] = [];
  for (let i = 0; i < options.searches; i += 1000) {
    batches.push(
      Array.from({ length: Math.min(1000, options.searches - i) }, (_, k) => {
        const owner = owners[Math.floor((i + k) / perOwner)] ?? author;
        return savedSearch(ids.newId(now), owner.id, now);
      }),
    );
  }
  // Eight units of work at once: on PostgreSQL each insert locks its owner's row for the limit,
  // and a batch's owners are its own, so they do not wait on each other (one by one took 17
  // minutes there); SQLite's units take turns either way.
  const pending = [...batches];
  const worker = async () => {
    for (let batch = pending.shift(); batch; batch = pending.shift()) {
      const rows = batch;
      await repos.unitOfWork.run(async (unit) => {
        for (const search of rows) await unit.savedSearches.insertWithinLimit(search, perOwner);
      });
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  console.log(
    `${name}: ${options.searches.toLocaleString("en")} saved searches stored in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  const guard = { maxSlots: 1_000_000_000, now };
  const market = createMarketplace(createTestDeps({ repos, clock: systemClock, random: webCryptoRandom }));
  // Rounds of new listings, each stored and then matched: the median round is the figure, since a
  // shared machine's speed swings between runs (and the first round also warms the code up).
  const rounds: { ms: number; cpuMs: number; matched: number; keys: number; candidates: number }[] = [];
  for (let round = 0; round < options.rounds; round++) {
    const rows = Array.from({ length: options.listings }, () => listing(ids.newId(now), author.id, now));
    for (const row of rows) {
      const event = {
        id: newEventId(now, webCryptoRandom.bytes(10)),
        type: "listing.created" as const,
        userId: author.id,
        occurredAt: now,
        data: { listing_id: row.id },
      };
      await repos.listings.insertWithinSlots(row, guard, [event]);
    }
    const keys = rows.reduce((sum, row) => sum + listingMatchKeys(row).size, 0) / rows.length;
    const candidates = await Promise.all(
      rows
        .slice(0, 200)
        .map(async (row) => (await repos.savedSearches.findCandidates([...listingMatchKeys(row)])).length),
    );
    let matched = 0;
    const started = performance.now();
    const cpu = process.cpuUsage();
    // Until every new listing was matched: the log also holds the matches' own events (the rounds
    // read past them, as the server's do), so a round with no listing is not the end.
    for (let seen = 0, calls = 0; seen < rows.length && calls < 100_000; calls++) {
      const report = await market.savedSearches.match(
        options.batch === undefined ? {} : { batch: options.batch },
      );
      matched += report.matched;
      seen += report.listings;
    }
    const ms = performance.now() - started;
    const used = process.cpuUsage(cpu);
    rounds.push({
      ms: ms / rows.length,
      cpuMs: (used.user + used.system) / 1000 / rows.length,
      matched: matched / rows.length,
      keys,
      candidates: candidates.reduce((a, b) => a + b, 0) / candidates.length,
    });
  }
  const sorted = [...rounds].sort((a, b) => a.ms - b.ms);
  const median = sorted[Math.floor((sorted.length - 1) / 2)] ?? sorted[0];
  if (!median) return;
  console.log(
    `${name}: ${options.rounds} rounds of ${options.listings.toLocaleString("en")} new listings, ms per listing by round: ` +
      rounds.map((r) => r.ms.toFixed(3)).join(", "),
  );
  console.log(
    `${name}: median round ${median.ms.toFixed(3)} ms per listing (this process's CPU: ${median.cpuMs.toFixed(3)} ms); ` +
      `${median.keys.toFixed(0)} keys and ${median.candidates.toFixed(0)} candidates per listing, ` +
      `${median.matched.toFixed(2)} matches per listing`,
  );
}

/** Measures on SQLite, then on PostgreSQL when a URL is given. */
export async function runSavedSearchBench(options: {
  searches: number;
  listings: number;
  rounds: number;
  batch: number | undefined;
  disjoint: boolean;
  postgresUrl?: string | undefined;
}) {
  if (options.disjoint) suffix = "q";
  const cpu = cpus();
  console.log(`Node ${process.version}; ${cpu.length} x ${cpu[0]?.model ?? "cpu"}`);
  const dir = "/tmp/psm-bench-saved";
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const sqlite = openSqliteStorage({ file: `${dir}/bench.db` });
  try {
    await measure("SQLite", sqlite, options);
  } finally {
    await sqlite.close();
  }
  if (options.postgresUrl === undefined) return console.log("PostgreSQL: skipped (no TEST_DATABASE_URL)");
  const database = await createTestDatabase(options.postgresUrl, "psm_bench_saved");
  const postgres = openPostgresStorage({ url: database.url, poolMax: 10 });
  try {
    await measure("PostgreSQL", postgres, options);
  } finally {
    await postgres.close();
    await database.drop();
  }
}

/** Deterministic listing data for the benchmark seed, the same for SQLite and PostgreSQL. */
import { CATEGORY_VALUES, createUuidV7Generator, type Listing, webCryptoRandom } from "@psm/core";
import { seededRandom } from "@psm/core/testing";

/** The search term of the "common term" row: in about one title in seven. */
export const COMMON_TERM = "consulting";
/** The category of the category row. */
export const PAGE_CATEGORY = "data-analytics";

// Ranked by frequency (Zipf-like), so the first word is the common search term.
export const WORDS = (
  "consulting software development data cloud strategy marketing design security audit analytics " +
  "support migration platform services engineering training recruitment legal finance tax review " +
  "integration automation mobile web ecommerce backend frontend devops infrastructure compliance " +
  "gdpr risk assessment advisory interim management project agile coaching brand content research " +
  "kubernetes terraform postgres python typescript payroll accounting valuation contract privacy"
).split(" ");
const WEIGHTS = WORDS.map((_, rank) => 1 / (rank + 1) ** 0.9);
const TOTAL = WEIGHTS.reduce((sum, weight) => sum + weight, 0);

function words(next: () => number, n: number): string {
  const out: string[] = [];
  for (let k = 0; k < n; k++) {
    let target = next() * TOTAL;
    let i = 0;
    while (i < WORDS.length - 1 && target > (WEIGHTS[i] ?? 0)) target -= WEIGHTS[i++] ?? 0;
    out.push(WORDS[i] ?? "data");
  }
  return out.join(" ");
}

/**
 * `count` listings spread over the year before `now`, oldest first, authors
 * taken round-robin. 85% active, 10% paused, 5% expired (active with a past
 * expires_at), like a live catalogue.
 */
export function* generateListings(
  count: number,
  authorIds: readonly string[],
  now: number,
): Generator<Listing> {
  const next = seededRandom(count);
  const ids = createUuidV7Generator(webCryptoRandom);
  const start = now - 365 * 86_400_000;
  const step = (365 * 86_400_000) / count;
  for (let i = 0; i < count; i++) {
    const at = new Date(Math.floor(start + i * step));
    const id = ids.newId(at);
    const title = words(next, 3 + Math.floor(next() * 4));
    const roll = next();
    yield {
      id,
      title: `${title.charAt(0).toUpperCase()}${title.slice(1)}`,
      description: `${words(next, 30)}.`,
      price: roll < 0.2 ? null : Math.round(next() * 500_000) / 100,
      priceUnit: "fixed",
      category: CATEGORY_VALUES[i % CATEGORY_VALUES.length] ?? "cybersecurity",
      condition: "new",
      images: roll < 0.5 ? [] : [`https://img.example.com/${id}.png`],
      userId: authorIds[i % authorIds.length] ?? "",
      structuredData: { hours: Math.floor(next() * 100) },
      status: roll < 0.1 ? "paused" : "active",
      contactEmail: null,
      expiresAt: roll > 0.95 ? new Date(now - 1000) : null,
      views: 0,
      createdAt: at,
    };
  }
}

/** Author ids (UUIDv7, a year and a bit old): their rows are written by each seeder. */
export function authorIds(count: number, now: number): string[] {
  const ids = createUuidV7Generator(webCryptoRandom);
  return Array.from({ length: count }, () => ids.newId(new Date(now - 400 * 86_400_000)));
}

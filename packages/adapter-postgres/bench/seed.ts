import type postgres from "postgres";

/** Search terms with a known shape in the seeded titles. */
export const TERMS = {
  rare: "quokka", // about one title in 100k
  medium: "kemoli", // one of 1000 made-up words, two per title: ~0.2%
  common: "consulting", // a quarter of all titles
  absent: "zzyzx",
  "2-char common": "ai", // in "training" and "retail": ~20%
  "2-char rare": "qu", // only in the rare titles
  "2-char absent": "zx",
  "1-char common": "a",
  "1-char rare": "q", // only in the rare titles
  "1-char absent": "z",
  // Terms of 3+ characters with no trigram (three letters or digits in a row).
  "no-trigram rare": "ka c", // "Quokka Consulting": a rare pair of common bigrams
  "no-trigram absent": "q+z",
  "no-trigram mixed": "a b", // a made-up word ending in "a" before one starting "b": ~2%
  "no-trigram trap": "g f", // never in a title, though "g " is in 40% and " f" in all
  // In a tenth of the first 600,000 titles and none after: common, but not among the newest at 1M.
  "2-char aged": "c#",
  // The same with a trigram: planned as a walk from its share of all titles, it walks every newer one.
  "phrase aged": "c# consulting",
  // Its trigrams are in a quarter of the titles, the phrase in none: only the search budget bounds it.
  "phrase trap": "consulting consulting",
} as const;

/** The category of the category page. */
export const PAGE_CATEGORY = "data-analytics";

const SERVICES = `array['consulting','consulting','consulting','design','development','audit','strategy',
  'analytics','migration','security','marketing','training']`;
const SYLLABLES = "array['ba','ke','li','mo','nu','ra','se','ti','vo','pe']";
const INDUSTRIES =
  "array['fintech','healthcare','retail','logistics','energy','public sector','education','media']";
const CATEGORIES = `array['strategic-consulting','software-development','digital-marketing','ux-ui-design',
  'staffing-hr','data-analytics','cybersecurity','artificial-intelligence','legal-consulting','financial-services']`;

/** A made-up six-letter word, the k-th of 1000 (0..999). */
const word = (k: string) =>
  `(${SYLLABLES})[1 + (${k}) % 10] || (${SYLLABLES})[1 + (${k}) / 10 % 10] || (${SYLLABLES})[1 + (${k}) / 100 % 10]`;

/** The title of serial `i`: a service word, two made-up words, an industry; rarely "Quokka", at first "C#". */
const TITLE = `case when i % 100003 = 17 then 'Quokka ' else '' end
  || case when i % 10 = 1 and i <= 600000 then 'C# ' else '' end
  || initcap((${SERVICES})[1 + abs(hashint4(i)) % 12]) || ' ' || ${word("abs(hashint4(i)) / 12 % 1000")} || ' '
  || ${word("abs(hashint4(i + 7919)) % 1000")} || ' for ' || (${INDUSTRIES})[1 + abs(hashint4(i)) / 12000 % 8]`;

/** Titles of serials `from`.. (count of them), drawn like the seeded ones. */
export async function sampleTitles(sql: postgres.Sql, from: number, count: number): Promise<string[]> {
  const rows = await sql.unsafe<{ t: string }[]>(
    `select ${TITLE} as t from generate_series(${from}, ${from + count - 1}) as i order by i`,
  );
  return rows.map((row) => row.t);
}

/** Adds authors until there are `total`, numbered in bench_authors for the listing seed. */
export async function seedAuthors(sql: postgres.Sql, total: number): Promise<void> {
  await sql`create table if not exists bench_authors (n int primary key, id uuid not null)`;
  const [row] = await sql<{ n: number }[]>`select count(*)::int as n from bench_authors`;
  const have = row?.n ?? 0;
  if (have >= total) return;
  await sql.unsafe(`
    with made as (
      insert into users (id, email, display_name, account_type, created_at)
      select gen_random_uuid(), 'author' || n || '@bench.example', 'Author ' || n, 'business', now()
      from generate_series(${have}, ${total - 1}) as n
      returning id, email)
    insert into bench_authors (n, id)
    select substring(email from 'author(\\d+)@')::int, id from made`);
}

/**
 * Inserts listings `from`..`to` (1-based serials) in one statement each batch:
 * UUIDv7-shaped ids in serial order, 90% active, 10% paused, 5% expired.
 */
export async function seedListings(
  sql: postgres.Sql,
  from: number,
  to: number,
  authors: number,
): Promise<void> {
  const baseMs = Date.UTC(2025, 0, 1);
  for (let start = from; start <= to; start += 100_000) {
    const end = Math.min(to, start + 99_999);
    await sql.unsafe(`
      insert into listings (id, user_id, title, title_folded, description, price, category, condition,
        images, structured_data, status, expires_at, created_at)
      select (lpad(to_hex(${baseMs}::bigint + i), 12, '0') || '7' || substr(h, 1, 3) || '8'
          || substr(h, 4, 15))::uuid,
        a.id, t, lower(t), 'Seeded listing number ' || i || ': we offer '
          || (${SERVICES})[1 + abs(hashint4(i + 104729)) % 12] || ' and '
          || (${SERVICES})[1 + abs(hashint4(i + 1299709)) % 12] || ' to clients in '
          || (${INDUSTRIES})[1 + abs(hashint4(i + 15485863)) % 8] || '.',
        (i % 1000) * 10.5, (${CATEGORIES})[1 + i % 10],
        'new', '[]', '{"seeded": true}', case when i % 10 = 3 then 'paused' else 'active' end,
        case when i % 20 = 7 then to_timestamp((${baseMs}::bigint + i) / 1000.0) end,
        to_timestamp((${baseMs}::bigint + i) / 1000.0)
      from generate_series(${start}, ${end}) as i
      cross join lateral (select md5(i::text) as h) as x
      cross join lateral (select ${TITLE} as t) as y
      join bench_authors a on a.n = i % ${authors}`);
  }
}

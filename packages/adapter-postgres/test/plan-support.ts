/** The data set and plan readers shared by search-plan*.test.ts. */
import { CATEGORY_VALUES, type ListingSearch } from "@psm/core";
import { buildListing, buildUser } from "@psm/core/testing";
import { createRepositories } from "../src/repositories/index.js";
import type { PostgresContext } from "./hooks.js";

export const NOW = new Date("2026-03-01T12:00:00.000Z");
// More active rows than a search without a trigram walks, so it reaches the grams index.
const ROWS = 30_000;
const AUTHORS = 200;
/** Titles older than every other row, whose terms only the grams index can reach in time. */
export const ANCIENT = ["Ancient zq c++ tooling", "Ancient zq c++ audit", "Ancient zq c++ review"];

/** A search of the active listings, a page of 20, with `extra` over it. */
export const query = (extra: Partial<ListingSearch>): ListingSearch => ({
  limit: 20,
  status: "active",
  ...extra,
});

/** A node of an EXPLAIN (ANALYZE, FORMAT JSON) plan. */
export interface PlanNode {
  "Node Type": string;
  "Index Name"?: string;
  "Actual Loops"?: number;
  "Actual Rows"?: number;
  Plans?: PlanNode[];
}

/** Every node of an analyzed plan that ran, however deep (CTEs and InitPlans included). */
export function ranNodes(node: PlanNode, into: PlanNode[] = []): PlanNode[] {
  if ((node["Actual Loops"] ?? 0) > 0) into.push(node);
  for (const child of node.Plans ?? []) ranNodes(child, into);
  return into;
}

/** Thrown to roll a transaction back on purpose. */
export class Undo extends Error {}

/**
 * Seeds the group's database: AUTHORS users, ROWS ordinary listings, a rare
 * title and the ANCIENT ones; answers the id of the author who holds those.
 */
export async function seedPlanRows(ctx: PostgresContext): Promise<string> {
  const { sql } = ctx.connection();
  const authors = Array.from({ length: AUTHORS }, () => buildUser());
  const authorId = authors[7]!.id;
  await ctx.storage().repositories.users.insert(authors[0]!);
  await sql`insert into users ${sql(
    authors.slice(1).map((u) => ({
      id: u.id,
      email: u.email,
      display_name: u.displayName,
      account_type: u.accountType,
      created_at: u.createdAt.toISOString(), // Drizzle makes this pool pass dates through as text
    })),
  )}`;
  // Ordinary titles sharing common words, each with a random hex tail; ids
  // shaped like UUIDv7 (millisecond prefix, then random), in insertion order.
  await sql`
    insert into listings (id, user_id, title, title_folded, description, category, condition, images,
      status, created_at)
    select (lpad(to_hex(1700000000000 + i), 12, '0') || '7' || substr(md5(i::text), 1, 3) || '8'
        || substr(md5(i::text), 4, 15))::uuid,
      (${sql.array(authors.map((u) => u.id))}::uuid[])[1 + i % ${AUTHORS}], t, lower(t), 'd',
      (${sql.array([...CATEGORY_VALUES])}::text[])[1 + i % 10], 'new', '[]',
      case when i % 10 = 0 then 'paused' else 'active' end, now()
    from generate_series(1, ${ROWS}) as i,
      lateral (select 'Consulting service ' || (i % 97) || ' offer ' || md5(i::text) as t) as title`;
  const { listings } = createRepositories(ctx.connection().db);
  await listings.insertWithinSlots(buildListing({ userId: authorId, title: "Quokka migration audit" }), {
    maxSlots: 1000,
    now: NOW,
  });
  for (const [i, title] of ANCIENT.entries()) {
    await listings.insertWithinSlots(
      buildListing({
        id: `01800000-0000-7000-8000-00000000000${i}`,
        userId: authorId,
        title,
        category: "legal-consulting",
      }),
      { maxSlots: 1000, now: NOW },
    );
  }
  // VACUUM as well: it moves the GIN index's pending list into the index and
  // records the index statistics the planner costs trigram scans with.
  await sql`vacuum analyze listings`;
  return authorId;
}

import {
  applyChanges,
  foldSearchText,
  isSearchable,
  isUuid,
  type Listing,
  type ListingChanges,
  type ListingRepository,
  type NewEvent,
  type PageQuery,
  type SlotGuard,
} from "@psm/core";
import { and, desc, eq, inArray, is, sql } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import { asArrays } from "../array-rows.js";
import type { Db, Transaction } from "../connection.js";
import { guarded } from "../db-errors.js";
import { lazy } from "../lazy.js";
import { listings } from "../schema.js";
import { eventWrites } from "./event-writer.js";
import { countFacets, countSlice } from "./listing-facets.js";
import { findExactly, findSlice } from "./listing-find.js";
import { createInsertBatcher } from "./listing-insert-batcher.js";
import {
  boundedQuery,
  hasTrigram,
  pageQuery,
  pageStatements,
  sliceQuery,
  toSearchResult,
} from "./listing-search.js";
import { activeAt, listingColumns, toRow, toSet } from "./listing-sql.js";
import { countInt, idBefore, lockUser, pageLimit } from "./query-helpers.js";
import { type SearchPool, withinSearchBudget } from "./search-budget.js";
import { createViewBatcher } from "./view-batcher.js";

async function countActive(db: Db | Transaction, userId: string, now: Date): Promise<number> {
  const [row] = await db
    .select({ n: countInt })
    .from(listings)
    .where(and(eq(listings.userId, userId), activeAt(now)));
  return row?.n ?? 0;
}

/** One insert, in the transaction it is given: lock the author, count, insert. */
async function insertWithin(tx: Transaction, listing: Listing, guard: SlotGuard): Promise<boolean> {
  await lockUser(tx, listing.userId);
  if ((await countActive(tx, listing.userId, guard.now)) >= guard.maxSlots) return false;
  await tx.insert(listings).values(toRow(listing));
  return true;
}

const isTrue = (done: boolean) => done;

async function findListing(db: Db | Transaction, id: string, lock: boolean): Promise<Listing | null> {
  const query = db.select(listingColumns).from(listings).where(eq(listings.id, id));
  // Named, as the search is (see there): the hottest read skips parsing after its first call.
  const [row] = lock ? await query.for("update") : await query.prepare("listing_by_id").execute();
  return row ?? null;
}

/** One view in its own statement: inside a unit of work, the increment belongs to that transaction. */
async function incrementOne(db: Db | Transaction, id: string): Promise<boolean> {
  // One UPDATE reading and writing the row under its lock: concurrent calls add up exactly.
  const rows = await db
    .update(listings)
    .set({ views: sql`${listings.views} + 1` })
    .where(eq(listings.id, id))
    .returning({ id: listings.id });
  return rows.length > 0;
}

async function write(db: Db | Transaction, id: string, changes: ListingChanges): Promise<Listing | null> {
  const set = toSet(changes);
  if (Object.keys(set).length === 0) return findListing(db, id, false);
  const [row] = await db.update(listings).set(set).where(eq(listings.id, id)).returning(listingColumns);
  return row ?? null;
}

/** How the listing repository bounds its work. */
export interface ListingRepositoryOptions {
  /**
   * The pool searches with a term, finds and facet counts run on, whose
   * connections carry the search budget (DESIGN.md "Search pool"). Without it
   * (a unit of work, tests of plans) they run on the repository's own handle,
   * unbounded.
   */
  search?: SearchPool | undefined;
  /**
   * The pool the short reads of signed-in requests run on (DESIGN.md "Reads pool"): a listing by
   * id, pages without a term, and in the other repositories a key, a session, a user, a grant,
   * the keys page, the inbox and a caller's event feed. Single statements outside any
   * transaction, so they see what any acknowledged write committed. Without it (a unit of work,
   * tests) they run on the handle.
   */
  reads?: Db | undefined;
}

/**
 * The PostgreSQL ListingRepository. Inside a unit of work `outbox` holds the unit's events until
 * its end (event-writer.ts).
 */
export function createListingRepository(
  db: Db,
  options: ListingRepositoryOptions = {},
  outbox?: NewEvent[],
): ListingRepository {
  const inUnit = is(db, PgTransaction);
  const writes = eventWrites(db, outbox);
  // A unit's searches belong to its transaction: they run there, unbounded (search-budget.ts).
  const pool = inUnit ? undefined : options.search;
  // The pool's repository batches views (see view-batcher.ts); a transaction's must not,
  // or one unit's increment would commit, or roll back, with other callers' views.
  const incrementViews = inUnit ? (id: string) => guarded(() => incrementOne(db, id)) : createViewBatcher(db);
  // Inserts likewise (see listing-insert-batcher.ts): a unit's own insert is a savepoint of the unit's
  // transaction; the batcher also falls back on it for members a batch cannot answer for.
  const insertOne = (listing: Listing, guard: SlotGuard, events: readonly NewEvent[] = []) =>
    guarded(() => writes.with((tx) => insertWithin(tx, listing, guard), events, isTrue));
  const insertWithinSlots = inUnit ? insertOne : createInsertBatcher(db, insertOne);
  const reads = options.reads ?? db;
  const page = pageStatements(reads);
  // The listing by id on the reads pool: built once (findListing builds per call, for a transaction's).
  const byId = lazy(() =>
    asArrays(
      reads
        .select(listingColumns)
        .from(listings)
        .where(eq(listings.id, sql.placeholder("id")))
        .prepare("listing_by_id"),
    ),
  );
  return {
    findById: (id) => guarded(async () => (isUuid(id) ? ((await byId()({ id }))[0] ?? null) : null)),
    // One round trip for the batch: one array parameter, each id a seek of the primary key.
    findByIds: (ids) =>
      guarded(async () => {
        const wanted = [...new Set(ids)].filter(isUuid);
        if (wanted.length === 0) return [];
        return db
          .select(listingColumns)
          .from(listings)
          .where(sql`${listings.id} = any(${sql.param(wanted)}::uuid[])`);
      }),
    search: (query, now) =>
      guarded(async () => {
        if (query.userId !== undefined && !isUuid(query.userId)) return [];
        const folded = query.text === undefined ? "" : foldSearchText(query.text);
        // Without a term: a named statement (one per connection and shape), parsed
        // once and, after five runs, planned once; a page walks its index, bounded.
        if (folded === "") return await page(query, now);
        // With one: on the search pool, where each call is planned with its pattern (a
        // generic plan cannot use the trigram index), and within the search budget, past
        // which it answers the slice of its walk.
        return await withinSearchBudget(
          db,
          pool,
          async (on) =>
            hasTrigram(folded)
              ? await pageQuery(on, query, now, folded)
              : toSearchResult(await boundedQuery(on, query, now, folded)),
          async (on) => toSearchResult(await sliceQuery(on, query, now, folded)),
        );
      }),
    // Unnamed and under the search budget, like a search with a term: past it,
    // a slice bounded by its LIMIT answers instead (listing-find.ts).
    find: (query, now) =>
      guarded(async () => {
        if (query.userId !== undefined && !isUuid(query.userId)) return [];
        if (query.after !== undefined && !isUuid(query.after.id)) return [];
        return withinSearchBudget(
          db,
          pool,
          (on) => findExactly(on, query, now),
          (on) => findSlice(on, query, now),
        );
      }),
    countByCategory: (query, cap, now) =>
      guarded(async () => {
        if (query.userId !== undefined && !isUuid(query.userId)) return { counts: {}, capped: false };
        return withinSearchBudget(
          db,
          pool,
          (on) => countFacets(on, query, cap, now),
          (on) => countSlice(on, query, cap, now),
        );
      }),
    listAll: (page: PageQuery) =>
      guarded(() =>
        db
          .select(listingColumns)
          .from(listings)
          .where(idBefore(listings.id, page))
          .orderBy(desc(listings.id))
          .limit(pageLimit(page)),
      ),
    insertWithinSlots,
    update: (id, changes, guard, events = []) =>
      guarded(async () => {
        if (!isUuid(id)) return null;
        // Every edit takes the author's lock, as insertWithinSlots does, and then
        // reads its row under a lock of its own: whether it reactivates is
        // decided on the row as it is now, never on what a caller read before
        // (a pause or an insert may have committed since).
        const edit = async (tx: Transaction): Promise<Listing | null | "limit_reached"> => {
          const found = await findListing(tx, id, false);
          if (found === null) return null;
          await lockUser(tx, found.userId);
          const current = await findListing(tx, id, true);
          if (current === null) return null;
          const next = applyChanges(current, changes);
          // `current` is not searchable, so the count below does not include it.
          if (!isSearchable(current, guard.now) && isSearchable(next, guard.now)) {
            if ((await countActive(tx, current.userId, guard.now)) >= guard.maxSlots) return "limit_reached";
          }
          return write(tx, id, changes);
        };
        return writes.with(edit, events, (result) => result !== null && result !== "limit_reached");
      }),
    delete: (id, events = []) =>
      guarded(async () => {
        if (!isUuid(id)) return false;
        const remove = async (on: Db | Transaction) =>
          (await on.delete(listings).where(eq(listings.id, id)).returning({ id: listings.id })).length > 0;
        // Without events, one statement as before: no transaction to open.
        return events.length === 0 ? remove(db) : writes.with(remove, events, isTrue);
      }),
    // A malformed id cannot name a listing: answered without a query.
    incrementViews: (id) => (isUuid(id) ? incrementViews(id) : Promise.resolve(false)),
    countActiveByUser: (userId, now) =>
      guarded(async () => (isUuid(userId) ? countActive(db, userId, now) : 0)),
    countActiveByUsers: (userIds, now) =>
      guarded(async () => {
        const ids = [...new Set(userIds)].filter(isUuid);
        const counts = new Map<string, number>();
        if (ids.length === 0) return counts;
        const rows = await db
          .select({ userId: listings.userId, n: countInt })
          .from(listings)
          .where(and(inArray(listings.userId, ids), activeAt(now)))
          .groupBy(listings.userId);
        for (const row of rows) counts.set(row.userId, row.n);
        return counts;
      }),
  };
}

import { isUuid, type Listing, type NewEvent, type SlotGuard } from "@psm/core";
import { asc, inArray, sql } from "drizzle-orm";
import type { Db, Transaction } from "../connection.js";
import { sqlState, toMarketplaceError } from "../db-errors.js";
import { listings, users } from "../schema.js";
import { createBatchQueue } from "./batch-queue.js";
import { writeEvents } from "./event-writer.js";
import { toRow } from "./listing-sql.js";

/** One insert waiting for a batch. */
interface Pending {
  listing: Listing;
  guard: SlotGuard;
  /** Written with the listing, only if it is inserted. */
  events: readonly NewEvent[];
  resolve: (inserted: boolean) => void;
  reject: (error: Error) => void;
}

/** Today's path for one insert: its own transaction (lock, count, insert, events), errors mapped. */
export type InsertOne = (
  listing: Listing,
  guard: SlotGuard,
  events?: readonly NewEvent[],
) => Promise<boolean>;

/** Tuning of createInsertBatcher; the defaults are what production uses. */
export interface InsertBatcherOptions {
  /** Inserts in one transaction (default 500): bounds the INSERT's parameters (15 a row). */
  maxMembers?: number;
  /**
   * Batch transactions at once (default 1). Whatever arrives while one is
   * written joins the next, so batches grow with the load; for one busy author
   * a second would only queue on the same user row.
   */
  maxInFlight?: number;
  /**
   * Times a batch chosen as a deadlock victim (40P01) is written again (default 3).
   * Batches lock authors in id order and never deadlock one another; a cycle
   * needs another transaction locking users in another order.
   */
  deadlockRetries?: number;
}

/** SQLSTATE of a deadlock victim. */
const DEADLOCK = "40P01";

/** An author's stored active listings: those unexpired at the batch's latest `now`, and the expiries before it. */
interface StoredActive {
  unexpired: number;
  /** Epoch milliseconds of the active listings expiring after the earliest `now` and by the latest. */
  expiring: number[];
}

/**
 * Locks the authors' rows in id order (LockRows above the sort), so that
 * batches of several processes over overlapping authors queue behind one
 * another rather than deadlock. Answers the authors that exist, lower-cased.
 * NO KEY UPDATE, as lockUser (query-helpers.ts) and for its reason.
 */
async function lockAuthors(tx: Transaction, authors: string[]): Promise<Set<string>> {
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .where(inArray(users.id, authors))
    .orderBy(asc(users.id))
    .for("no key update");
  return new Set(rows.map((row) => row.id.toLowerCase()));
}

/**
 * Counts the authors' stored active listings, in a statement of its own that
 * starts after lockAuthors returned: under READ COMMITTED its snapshot is
 * taken then, so it sees every insert committed by whoever held a lock before
 * (one statement locking and counting would count from before its lock wait).
 * One scan per author serves members with differing `now`: those unexpired at
 * the latest, plus the few expiries between the earliest and the latest.
 */
async function countStored(
  tx: Transaction,
  authors: string[],
  from: Date,
  to: Date,
): Promise<Map<string, StoredActive>> {
  const rows = await tx.execute<{ user_id: string; unexpired: number; expiring: number[] }>(sql`
    select user_id,
      (count(*) filter (where expires_at is null or expires_at > ${to.toISOString()}::timestamptz))::int as unexpired,
      coalesce(array_agg((extract(epoch from expires_at) * 1000)::float8)
        filter (where expires_at <= ${to.toISOString()}::timestamptz), '{}') as expiring
    from ${listings}
    where user_id = any(${sql.param(authors)}::uuid[]) and status = 'active'
      and (expires_at is null or expires_at > ${from.toISOString()}::timestamptz)
    group by user_id`);
  return new Map(
    rows.map((row) => [row.user_id.toLowerCase(), { unexpired: row.unexpired, expiring: row.expiring }]),
  );
}

/** Whether a listing counts against its author's slots at `at` (epoch ms), as activeAt() tests it in SQL. */
function countsAt(listing: Listing, at: number): boolean {
  return listing.status === "active" && (listing.expiresAt === null || listing.expiresAt.getTime() > at);
}

/** What one batch transaction decided for its members. */
interface Decision {
  inserted: Pending[];
  refused: Pending[];
  /** Members the batch cannot answer for (author missing, id repeated): each runs alone afterwards. */
  alone: Pending[];
}

/**
 * Decides the members in arrival order, as if each ran today's transaction
 * after the previous one: its count is the author's stored active listings at
 * its `now` plus the batch's earlier inserts of that author active then.
 */
function decide(batch: Pending[], locked: Set<string>, stored: Map<string, StoredActive>): Decision {
  const decision: Decision = { inserted: [], refused: [], alone: [] };
  const earlier = new Map<string, Listing[]>();
  const ids = new Set<string>();
  for (const member of batch) {
    const author = member.listing.userId.toLowerCase();
    const id = member.listing.id.toLowerCase();
    // A missing author (full: false, else a foreign-key error) and a repeated id
    // (a unique violation) keep today's answer by running today's path.
    if (!locked.has(author) || ids.has(id)) {
      decision.alone.push(member);
      continue;
    }
    const now = member.guard.now.getTime();
    const own = stored.get(author);
    const mine = earlier.get(author) ?? [];
    const count =
      (own?.unexpired ?? 0) +
      (own?.expiring.filter((expiry) => expiry > now).length ?? 0) +
      mine.filter((listing) => countsAt(listing, now)).length;
    if (count >= member.guard.maxSlots) {
      decision.refused.push(member);
      continue;
    }
    ids.add(id);
    mine.push(member.listing);
    earlier.set(author, mine);
    decision.inserted.push(member);
  }
  return decision;
}

/**
 * One transaction for the batch: lock, count, one multi-row INSERT of the admitted members, then
 * their events, in arrival order, in one statement with one counter UPDATE (last: it holds the
 * counter row until the COMMIT).
 */
async function writeBatch(tx: Transaction, batch: Pending[]): Promise<Decision> {
  const authors = [...new Set(batch.map((member) => member.listing.userId.toLowerCase()))];
  const locked = await lockAuthors(tx, authors);
  let stored = new Map<string, StoredActive>();
  if (locked.size > 0) {
    const times = batch.map((member) => member.guard.now.getTime());
    stored = await countStored(tx, [...locked], new Date(Math.min(...times)), new Date(Math.max(...times)));
  }
  const decision = decide(batch, locked, stored);
  if (decision.inserted.length > 0) {
    await tx.insert(listings).values(decision.inserted.map((member) => toRow(member.listing)));
    await writeEvents(
      tx,
      decision.inserted.flatMap((member) => member.events),
    );
  }
  return decision;
}

/** Runs members one at a time through today's path, in arrival order, each settling on its own. */
async function runAlone(members: Pending[], insertOne: InsertOne): Promise<void> {
  for (const member of members) {
    await insertOne(member.listing, member.guard, member.events).then(member.resolve, member.reject);
  }
}

/**
 * Group commit for listing inserts on the pool. Each insert used to be its own
 * transaction (BEGIN, lock the author, count, INSERT, COMMIT), the author's row
 * locked across four round trips and a WAL flush: one author's concurrent
 * creates ran one at a time. Here the inserts arriving within one turn of the
 * event loop, or while a batch is written, share one transaction:
 *
 * - Slots exact: the authors' rows are locked first (id order), their active
 *   listings counted in the next statement, and the members decided in arrival
 *   order, each counting the batch's earlier inserts too; other processes'
 *   batches and single inserts take the same locks, so count-and-insert stays
 *   atomic per author.
 * - Durable: each insert resolves only after the COMMIT that holds it (or the
 *   one that refused it: false); a failed COMMIT rejects every member.
 * - Events: the inserted members' events are written in the batch's
 *   transaction, after its INSERT, so they commit or roll back with it; a
 *   deadlock retry writes them again from scratch (the counter rolled back too).
 * - Failures: a statement failing inside the batch (a duplicate id, a CHECK) is
 *   rolled back whole and its members run again one at a time through
 *   `insertOne`, so only the guilty one rejects, as guarded() maps it. A
 *   deadlock victim is written again; a lost connection rejects every member.
 *
 * Only for the pool: inside a unit of work the insert must join the unit's
 * transaction, so the repository calls `insertOne` there directly.
 */
export function createInsertBatcher(
  db: Db,
  insertOne: InsertOne,
  options: InsertBatcherOptions = {},
): InsertOne {
  const maxMembers = options.maxMembers ?? 500;
  const maxInFlight = options.maxInFlight ?? 1;
  const deadlockRetries = options.deadlockRetries ?? 3;
  /** Settles every member of the batch; never throws. */
  async function write(batch: Pending[]): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      // Set when a statement inside failed: BEGIN and COMMIT failures leave it undefined.
      let inside: { error: unknown } | undefined;
      let decision: Decision;
      try {
        decision = await db.transaction(async (tx) => {
          try {
            return await writeBatch(tx, batch);
          } catch (error) {
            inside = { error };
            throw error;
          }
        });
      } catch (error) {
        // Rolled back whole: nothing of the batch is stored, so writing it again counts nothing twice.
        if (sqlState(error) === DEADLOCK && attempt < deadlockRetries) continue;
        const failure = toMarketplaceError(error);
        // A statement refused some member's row, most likely (a duplicate id): each alone finds out whose.
        const memberFault =
          inside !== undefined && failure.code !== "service_unavailable" && sqlState(error) !== DEADLOCK;
        if (memberFault) return runAlone(batch, insertOne);
        for (const member of batch) member.reject(failure);
        return;
      }
      for (const member of decision.inserted) member.resolve(true);
      for (const member of decision.refused) member.resolve(false);
      return runAlone(decision.alone, insertOne);
    }
  }

  const queue = createBatchQueue(write, maxInFlight);

  return (listing, guard, events = []) => {
    // A malformed id fails in SQL; alone, it fails as it always has, sharing no batch.
    if (!isUuid(listing.id) || !isUuid(listing.userId)) return insertOne(listing, guard, events);
    return new Promise<boolean>((resolve, reject) => {
      const full = (members: Pending[]) => members.length >= maxMembers;
      queue.filling(() => [], full).push({ listing, guard, events, resolve, reject });
      queue.schedule();
    });
  };
}

import {
  isUuid,
  type MailedCursors,
  MarketplaceError,
  type SavedSearch,
  type SavedSearchMatch,
  type SavedSearchRepository,
  savedSearchMatchKey,
  UNMAILED_SCAN_EVENTS,
} from "@psm/core";
import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../connection.js";
import { guarded } from "../db-errors.js";
import { eventSequence } from "../schema-events.js";
import { savedSearchCursor, savedSearches } from "../schema-saved-searches.js";
import { countInt, idBefore, lockUser, pageLimit, texts } from "./query-helpers.js";

type SavedSearchRow = typeof savedSearches.$inferSelect;

function toSavedSearch({ matchKey: _, mailedSeq: __, ...row }: SavedSearchRow): SavedSearch {
  return row;
}

/** The user's saved search (or all of theirs) and their mailed cursors. */
async function cursorsOf(db: Db, userId: string, savedSearchId: string | null): Promise<Map<string, number>> {
  const rows = await db
    .select({ id: savedSearches.id, mailedSeq: savedSearches.mailedSeq })
    .from(savedSearches)
    .where(
      and(
        eq(savedSearches.userId, userId),
        savedSearchId === null ? undefined : eq(savedSearches.id, savedSearchId),
      ),
    );
  return new Map(rows.map((row) => [row.id, row.mailedSeq]));
}

/** The PostgreSQL SavedSearchRepository, shared safely by several processes. */
export function createSavedSearchRepository(db: Db): SavedSearchRepository {
  return {
    // The user's row is locked first (lockUser), so concurrent inserts for one user queue there
    // and each counts what the previous one committed.
    insertWithinLimit: (search, max) =>
      guarded(async () => {
        if (!isUuid(search.userId)) throw new MarketplaceError("user_not_found");
        return db.transaction(async (tx) => {
          await lockUser(tx, search.userId);
          const [held] = await tx
            .select({ n: countInt })
            .from(savedSearches)
            .where(eq(savedSearches.userId, search.userId));
          if ((held?.n ?? 0) >= max) return false;
          // The mailed cursor starts at the log's end (the counter's last seq given: no later event
          // is visible before it). A missing user fails the foreign key here: user_not_found.
          const [log] = await tx
            .select({ last: eventSequence.last })
            .from(eventSequence)
            .where(eq(eventSequence.id, 1));
          await tx
            .insert(savedSearches)
            .values({ ...search, matchKey: savedSearchMatchKey(search), mailedSeq: log?.last ?? 0 });
          return true;
        });
      }),
    findById: (id) =>
      guarded(async () => {
        if (!isUuid(id)) return null;
        const [row] = await db.select().from(savedSearches).where(eq(savedSearches.id, id));
        return row === undefined ? null : toSavedSearch(row);
      }),
    listByUser: (userId, page) =>
      guarded(async () => {
        const before = idBefore(savedSearches.id, page);
        if (!isUuid(userId)) return [];
        const rows = await db
          .select()
          .from(savedSearches)
          .where(and(eq(savedSearches.userId, userId), before))
          .orderBy(desc(savedSearches.id))
          .limit(pageLimit(page));
        return rows.map(toSavedSearch);
      }),
    // Its matches stay (keyed by listing, they are not found by saved search); none is told again.
    delete: (id) =>
      guarded(async () => {
        if (!isUuid(id)) return false;
        const rows = await db.delete(savedSearches).where(eq(savedSearches.id, id));
        return rows.count > 0;
      }),
    // One array parameter, any number of keys; each is one seek of the match_key index.
    findCandidates: (keys) =>
      guarded(async () => {
        if (keys.length === 0) return [];
        const rows = await db
          .select()
          .from(savedSearches)
          .where(sql`${savedSearches.matchKey} = any(${sql.param([...keys])}::text[])`);
        return rows.map(toSavedSearch);
      }),
    // One statement. Only pairs whose saved search and listing exist go in, and those are held
    // (KEY SHARE) until the transaction ends, as webhook deliveries' insertMany: one deleted
    // meanwhile never fails the others' rows, and a listing's delete waits for the insert, then
    // takes its matches (the trigger of 0020). A pair recorded before conflicts and is skipped.
    recordMatches: (matches) =>
      guarded(async () => {
        const unique = new Map<string, SavedSearchMatch>();
        for (const match of matches) {
          if (isUuid(match.savedSearchId) && isUuid(match.listingId)) {
            unique.set(`${match.savedSearchId}/${match.listingId}`, match);
          }
        }
        if (unique.size === 0) return [];
        const rows = [...unique.values()];
        const searchIds = [...new Set(rows.map((row) => row.savedSearchId))];
        const listingIds = [...new Set(rows.map((row) => row.listingId))];
        const recorded = await db.execute<{ saved_search_id: string; listing_id: string }>(sql`
          with live as (
            select id from saved_searches where id = any(${sql.param(searchIds)}::uuid[]) order by id for key share
          ), listed as (
            select id from listings where id = any(${sql.param(listingIds)}::uuid[]) order by id for key share
          )
          insert into saved_search_matches (saved_search_id, listing_id, matched_at)
          select m.saved_search_id::uuid, m.listing_id::uuid, m.matched_at::timestamptz
          from unnest(
            ${texts(rows.map((row) => row.savedSearchId))}::text[],
            ${texts(rows.map((row) => row.listingId))}::text[],
            ${texts(rows.map((row) => row.matchedAt.toISOString()))}::text[]
          ) as m(saved_search_id, listing_id, matched_at)
          where m.saved_search_id::uuid in (select id from live) and m.listing_id::uuid in (select id from listed)
          on conflict do nothing
          returning saved_search_id, listing_id`);
        return recorded.flatMap((row) => unique.get(`${row.saved_search_id}/${row.listing_id}`) ?? []);
      }),
    // The walk of the user's events reads the (user_id, seq) index: at most UNMAILED_SCAN_EVENTS
    // entries, of which only the saved_search.matched rows come back.
    unmailedMatches: (userId, savedSearchId, limit) =>
      guarded(async () => {
        const none = { matches: [], through: null };
        if (!isUuid(userId) || (savedSearchId !== null && !isUuid(savedSearchId)) || limit <= 0) return none;
        const cursors = await cursorsOf(db, userId, savedSearchId);
        if (cursors.size === 0) return none;
        const from = Math.min(...cursors.values());
        const rows = await db.execute<{
          seq: string;
          sid: string | null;
          lid: string | null;
          at: Date | string;
          last: string;
        }>(sql`
          with walk as (
            select seq, type, data, occurred_at from events
            where user_id = ${userId}::uuid and seq > ${from} order by seq limit ${UNMAILED_SCAN_EVENTS}
          )
          select w.seq, w.data ->> 'saved_search_id' as sid, w.data ->> 'listing_id' as lid,
            w.occurred_at as at, (select max(seq) from walk) as last
          from walk w where w.type = 'saved_search.matched'
          union all select null, null, null, null, (select max(seq) from walk)
          order by 1 nulls last`);
        const end = rows.at(-1)?.last;
        if (end == null) return none;
        const matches: SavedSearchMatch[] = [];
        for (const row of rows) {
          if (row.seq == null || row.sid == null || row.lid == null) continue;
          const seq = Number(row.seq);
          const cursor = cursors.get(row.sid);
          if (cursor === undefined || seq <= cursor) continue;
          matches.push({ savedSearchId: row.sid, listingId: row.lid, matchedAt: new Date(row.at) });
          if (matches.length >= limit) return { matches, through: seq };
        }
        return { matches, through: Number(end) };
      }),
    markMailed: (userId, savedSearchId, through) =>
      guarded(async () => {
        if (!isUuid(userId) || (savedSearchId !== null && !isUuid(savedSearchId))) return {};
        return db.transaction(async (tx) => {
          const before: Record<string, number> = Object.fromEntries(
            await cursorsOf(tx, userId, savedSearchId),
          );
          await tx
            .update(savedSearches)
            .set({ mailedSeq: sql`greatest(${savedSearches.mailedSeq}, ${through})` })
            .where(
              and(
                eq(savedSearches.userId, userId),
                savedSearchId === null ? undefined : eq(savedSearches.id, savedSearchId),
              ),
            );
          return before;
        });
      }),
    restoreMailed: (cursors: MailedCursors) =>
      guarded(async () => {
        const entries = Object.entries(cursors).filter(([id]) => isUuid(id));
        if (entries.length === 0) return;
        await db.transaction(async (tx) => {
          for (const [id, seq] of entries) {
            await tx.update(savedSearches).set({ mailedSeq: seq }).where(eq(savedSearches.id, id));
          }
        });
      }),
    // SKIP LOCKED, as the webhook fan-out's cursor: a round holds the row until it commits; another
    // process gets no row and passes instead of waiting and then matching the same events.
    takeMatchCursor: () =>
      guarded(async () => {
        const [row] = await db
          .select({ lastSeq: savedSearchCursor.lastSeq })
          .from(savedSearchCursor)
          .where(eq(savedSearchCursor.id, 1))
          .for("update", { skipLocked: true });
        if (row !== undefined) return row.lastSeq;
        const [exists] = await db.select({ id: savedSearchCursor.id }).from(savedSearchCursor);
        if (exists === undefined) throw new Error("saved_search_cursor has no row");
        return null;
      }),
    advanceMatchCursor: (seq) =>
      guarded(async () => {
        await db.update(savedSearchCursor).set({ lastSeq: seq }).where(eq(savedSearchCursor.id, 1));
      }),
  };
}

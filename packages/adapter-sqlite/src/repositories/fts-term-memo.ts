import type { Database } from "better-sqlite3";

// A search plans on its terms' doclists (fts-plan.ts: how far a term's first
// entries reach, where its n-th entry is) before it reads a row, and those
// answers are the same for every search with the same term until the index
// changes: words recur across searches that are all different. Each answer is
// kept with the FTS5 structure record it was read under (the `_data` row 10:
// every flush, merge or delete of the index writes a new one, its write counter
// moved) and used only while that record is unchanged. DESIGN.md "Term memo".

/** Entries kept per index before it starts again: ~100 bytes each. */
const MAX_ENTRIES = 8_192;

/** The rowid of FTS5's structure record in its `_data` table (fts5Int.h FTS5_STRUCTURE_ROWID). */
const STRUCTURE_ROWID = 10;

/** Planning answers of one FTS5 index, valid while its structure is unchanged. */
export interface TermMemo {
  /** The answer kept under `key`, else `read()`'s, kept; `read()` alone where answers may not be kept. */
  get<T>(key: string, read: () => T): T;
}

/** The memos of a runner's indexes, and when they may be used. */
export interface TermMemos {
  /** The memo of FTS5 table `table` (fts-plan.ts FtsTable). */
  of(table: string): TermMemo;
  /**
   * Runs a search's work. Begun outside any transaction of this connection, its
   * first planning answer begins a read transaction that lasts to its end:
   * from there every statement reads one snapshot, and each index's structure
   * is read once (a search without words plans nothing and opens none). Begun
   * inside one, it keeps no answers: this connection's own pending writes are
   * visible to FTS5 before they reach the structure record.
   */
  around<T>(work: () => T): T;
}

export function createTermMemos(sqlite: Database): TermMemos {
  // A search runs outside any transaction of this connection (around): it may keep answers.
  let outside = false;
  // The read transaction the search began at its first planning answer, while it lasts.
  let snapshot: object | undefined;
  const memos = new Map<string, TermMemo>();
  // Deferred: the snapshot is taken at its first read and held to the search's end. A search is
  // bounded (its budgets), so the read lock it holds is too.
  const begin = sqlite.prepare("BEGIN");
  const commit = sqlite.prepare("COMMIT");
  const rollback = sqlite.prepare("ROLLBACK");

  /** The search's snapshot, begun now if need be; none where answers may not be kept. */
  function snapshotNow(): object | undefined {
    if (snapshot !== undefined || !outside) return snapshot;
    // Planning first met inside one of the search's own transaction functions keeps nothing:
    // that transaction is not the whole search's snapshot.
    if (sqlite.inTransaction) return undefined;
    begin.run();
    snapshot = {};
    return snapshot;
  }

  function memoOf(table: string): TermMemo {
    const structure = sqlite
      .prepare<[number], Buffer>(`SELECT block FROM "${table}_data" WHERE id = ?`)
      .pluck();
    const kept = new Map<string, unknown>();
    let under: Buffer | undefined;
    // The structure as the current snapshot holds it, read once per search.
    let readIn: object | undefined;
    let now: Buffer | undefined;
    return {
      get<T>(key: string, read: () => T): T {
        const current = snapshotNow();
        if (current === undefined) return read();
        if (readIn !== current) {
          now = structure.get(STRUCTURE_ROWID);
          readIn = current;
        }
        if (now === undefined) return read();
        if (under === undefined || !now.equals(under) || kept.size >= MAX_ENTRIES) {
          kept.clear();
          under = now;
        }
        if (kept.has(key)) return kept.get(key) as T;
        const value = read();
        kept.set(key, value);
        return value;
      },
    };
  }

  return {
    of(table) {
      let memo = memos.get(table);
      if (!memo) {
        memo = memoOf(table);
        memos.set(table, memo);
      }
      return memo;
    },
    around<T>(work: () => T): T {
      // Within a search, its own snapshot; inside any other transaction, nothing kept.
      if (outside || sqlite.inTransaction) return work();
      outside = true;
      let failed = true;
      try {
        const result = work();
        failed = false;
        return result;
      } finally {
        outside = false;
        if (snapshot !== undefined) {
          snapshot = undefined;
          if (sqlite.inTransaction) (failed ? rollback : commit).run();
        }
      }
    },
  };
}

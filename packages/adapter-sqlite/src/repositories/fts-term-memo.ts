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
   * Runs a search's work. Begun outside any transaction of this connection, it
   * runs in one read transaction: every statement of the search reads one
   * snapshot, and each index's structure is read once, at its first planning
   * answer. Begun inside one, it keeps no answers: this connection's own
   * pending writes are visible to FTS5 before they reach the structure record.
   */
  around<T>(work: () => T): T;
}

export function createTermMemos(sqlite: Database): TermMemos {
  // The search running in a read transaction of its own (around): while set, answers may be kept.
  let snapshot: object | undefined;
  const memos = new Map<string, TermMemo>();
  // Deferred: the snapshot is taken at the search's first read and held to its end. A search is
  // bounded (its budgets), so the read lock it holds is too.
  const inOneRead = sqlite.transaction((work: () => unknown) => work());

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
        if (snapshot === undefined) return read();
        if (readIn !== snapshot) {
          now = structure.get(STRUCTURE_ROWID);
          readIn = snapshot;
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
      // Inside a search's own read transaction, the same snapshot; inside any other, nothing kept.
      if (sqlite.inTransaction) return work();
      snapshot = {};
      try {
        return inOneRead(work) as T;
      } finally {
        snapshot = undefined;
      }
    },
  };
}

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
   * Runs a search's work. Its planning reuses kept answers only when it began
   * outside any transaction of this connection: inside one, this connection's
   * own pending writes are visible to FTS5 before they reach the structure record.
   */
  around<T>(work: () => T): T;
}

export function createTermMemos(sqlite: Database): TermMemos {
  let trusted = false;
  // Moves at each search's start: outside a transaction, an index's structure is read once a search.
  let epoch = 0;
  const memos = new Map<string, TermMemo>();

  function memoOf(table: string): TermMemo {
    const structure = sqlite
      .prepare<[number], Buffer>(`SELECT block FROM "${table}_data" WHERE id = ?`)
      .pluck();
    const kept = new Map<string, unknown>();
    let under: Buffer | undefined;
    let outside: Buffer | undefined;
    let readAt = -1;
    /**
     * The structure the caller reads under: inside a transaction its snapshot's
     * (where a meet's cut points must be exact); outside one, as the search
     * found it at its start, as a plan read before its transaction already is.
     */
    function structureNow(): Buffer | undefined {
      if (sqlite.inTransaction) return structure.get(STRUCTURE_ROWID);
      if (readAt !== epoch) {
        outside = structure.get(STRUCTURE_ROWID);
        readAt = epoch;
      }
      return outside;
    }
    return {
      get<T>(key: string, read: () => T): T {
        if (!trusted) return read();
        const now = structureNow();
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
    around(work) {
      const before = trusted;
      trusted = !sqlite.inTransaction;
      epoch++;
      try {
        return work();
      } finally {
        trusted = before;
      }
    },
  };
}

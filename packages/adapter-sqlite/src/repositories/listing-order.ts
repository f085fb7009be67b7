import type { Listing } from "@psm/core";
import type { Database } from "better-sqlite3";
import { toParams } from "./listing-rows.js";

// listings.seq (the rowid; -seq is the FTS rowid) follows id order, so FTS5
// yields hits newest first with no sort. Each insert takes a seq between its
// id-order neighbours': the UUIDv7 time and sequence, spaced
// (ms * 2^14 + sequence * 4 + 1). Why: DESIGN.md "Newest first without a sort".
const SEQ_PER_MS = 1n << 14n;
const SEQ_PER_STEP = 4n;
const MAX_SEQ = (1n << 63n) - 1n;
const UUID_PREFIX = /^([0-9a-f]{8})-([0-9a-f]{4})-[0-9a-f]([0-9a-f]{3})/;

function hint(id: string): bigint | undefined {
  const match = UUID_PREFIX.exec(id);
  if (!match) return undefined;
  const ms = BigInt(`0x${match[1]}${match[2]}`);
  const sequence = BigInt(`0x${match[3]}`); // rand_a: 12 bits
  return ms * SEQ_PER_MS + sequence * SEQ_PER_STEP + 1n;
}

/** Inserts listings with a seq in id order; call inside a write transaction. */
export interface ListingWriter {
  insert(listing: Listing): void;
}

/** Prepares the statements of the listing insert once. */
export function createListingWriter(sqlite: Database): ListingWriter {
  const seqOf = (sql: string) => sqlite.prepare<[string | bigint], bigint>(sql).pluck().safeIntegers(true);
  const below = seqOf("SELECT seq FROM listings WHERE id < ? ORDER BY id DESC LIMIT 1");
  const above = seqOf("SELECT seq FROM listings WHERE id > ? ORDER BY id LIMIT 1");
  const run = seqOf("SELECT seq FROM listings WHERE seq >= ? ORDER BY seq LIMIT 64");
  const shift = sqlite.prepare<[bigint]>("UPDATE listings SET seq = seq + 1 WHERE seq = ?");
  const insert = sqlite.prepare(
    `INSERT INTO listings (seq, id, title, title_folded, description, price, price_unit, category, condition, images,
       user_id, structured_data, status, contact_email, expires_at, views, created_at)
     VALUES (@seq, @id, @title, @title_folded, @description, @price, @price_unit, @category, @condition, @images,
       @user_id, @structured_data, @status, @contact_email, @expires_at, @views, @created_at)`,
  );

  /** Frees seq `at` by moving the consecutive run of seqs starting there up by one. */
  function makeRoom(at: bigint): void {
    let end = at; // first free seq after the run
    for (;;) {
      const batch = run.all(end);
      let consecutive = 0;
      for (const seq of batch) {
        if (seq !== end) break;
        end++;
        consecutive++;
      }
      if (consecutive < batch.length || batch.length < 64) break;
    }
    // Highest first, so no step lands on a row not yet moved.
    for (let seq = end - 1n; seq >= at; seq--) shift.run(seq);
  }

  function allocate(id: string): bigint {
    const lo = below.get(id) ?? 0n;
    const hi = above.get(id) ?? MAX_SEQ + 1n;
    if (hi - lo < 2n) {
      makeRoom(hi);
      return hi;
    }
    const wanted = hint(id) ?? (hi > MAX_SEQ ? lo + SEQ_PER_MS : (lo + hi) / 2n);
    if (wanted <= lo) return lo + 1n;
    return wanted >= hi ? hi - 1n : wanted;
  }

  return {
    insert(listing) {
      insert.run({ ...toParams(listing), seq: allocate(listing.id) });
    },
  };
}

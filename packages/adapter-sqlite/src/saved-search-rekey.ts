import { savedSearchMatchKey } from "@psm/core";
import { and, eq, gte, lt } from "drizzle-orm";
import type { Db } from "./connection.js";
import { savedSearches } from "./schema-saved-searches.js";

// Keys that begin "r:", as a range of the match_key index (";" follows ":").
const MARKED = and(gte(savedSearches.matchKey, "r:"), lt(savedSearches.matchKey, "r;"));

/**
 * Keys again, by core's savedSearchMatchKey, the saved searches a migration marked `r:` because
 * the rule of their key changed (migrations/0021_saved-search-keys.sql). None are left after the
 * first run, so later runs read nothing.
 */
export function rekeySavedSearches(db: Db): number {
  // Read first outside a transaction: at nearly every start nothing is marked, and no write lock
  // need be waited for.
  if (db.select({ id: savedSearches.id }).from(savedSearches).where(MARKED).limit(1).all().length === 0)
    return 0;
  // Immediate: a read then a write, which another process migrating at once must not split.
  return db.transaction(
    (tx) => {
      const marked = tx.select().from(savedSearches).where(MARKED).all();
      for (const row of marked) {
        const matchKey = savedSearchMatchKey(row);
        tx.update(savedSearches).set({ matchKey }).where(eq(savedSearches.id, row.id)).run();
      }
      return marked.length;
    },
    { behavior: "immediate" },
  );
}

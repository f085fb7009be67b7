import { savedSearchMatchKey } from "@psm/core";
import { and, eq, gte, lt } from "drizzle-orm";
import type { Db } from "./connection.js";
import { savedSearches } from "./schema-saved-searches.js";

// Keys that begin "r:", as a range of the match_key index (";" follows ":").
const MARKED = and(gte(savedSearches.matchKey, "r:"), lt(savedSearches.matchKey, "r;"));

/**
 * Keys again, by core's savedSearchMatchKey, the saved searches a migration marked `r:` because
 * the rule of their key changed (migrations/0021_saved_search_keys.sql). None are left after the
 * first run, so later runs read nothing.
 */
export async function rekeySavedSearches(db: Db): Promise<number> {
  return db.transaction(async (tx) => {
    const marked = await tx.select().from(savedSearches).where(MARKED);
    for (const row of marked) {
      const matchKey = savedSearchMatchKey(row);
      await tx.update(savedSearches).set({ matchKey }).where(eq(savedSearches.id, row.id));
    }
    return marked.length;
  });
}

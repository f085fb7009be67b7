import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";

/** The drizzle handle the repositories share (query builder only, no relational API). */
export type Db = BetterSQLite3Database;

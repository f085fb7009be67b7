/**
 * `@psm/adapter-sqlite/testing`: raw connections for tests outside this
 * package that reach underneath the repositories, to inspect a database file
 * or to break it on purpose.
 */
import Database from "better-sqlite3";

export { openConnection } from "../connection.js";
export { SEARCH_INDEXES } from "../search-index-merge.js";

import { SEARCH_INDEXES, segmentCounter } from "../search-index-merge.js";

/** How many segments each search index holds (SEARCH_INDEXES' order): one once merged. */
export function searchIndexSegments(db: Database.Database): number[] {
  return SEARCH_INDEXES.map((table) => segmentCounter(db, table)());
}

/**
 * Opens an existing database file read-only, as another process (perhaps a
 * killed one) left it, WAL included; changes nothing in it.
 */
export function openReadOnly(file: string): Database.Database {
  return new Database(file, { readonly: true, fileMustExist: true });
}

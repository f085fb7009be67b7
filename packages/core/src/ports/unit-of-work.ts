import type { Repositories } from "./repositories.js";

/**
 * Runs several repository calls as one transaction. `work` gets repositories
 * bound to it: what they write commits when `work` resolves and is rolled back
 * when it throws (the throw is passed on). While a unit runs, other callers
 * never see its uncommitted writes. Units may run one at a time (SQLite) or
 * concurrently (PostgreSQL); either way each is atomic.
 */
export interface UnitOfWork {
  run<T>(work: (repos: Repositories) => Promise<T>): Promise<T>;
}

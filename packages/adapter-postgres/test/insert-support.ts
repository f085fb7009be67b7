/** Set-up shared by the listing-insert-batcher*.test.ts files. */
import { isMarketplaceError, type SlotGuard, type User } from "@psm/core";
import { buildUser } from "@psm/core/testing";
import type { InsertOne } from "../src/repositories/listing-insert-batcher.js";
import type { PostgresContext } from "./hooks.js";

export const NOW = new Date("2026-03-01T12:00:00.000Z");
export const HOUR = 3_600_000;
export const at = (ms: number) => new Date(NOW.getTime() + ms);
export const NO_LIMIT: SlotGuard = { maxSlots: 1_000_000, now: NOW };

/** The next turn of the event loop: what was called before it is one batch. */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** For batchers built directly: the batch itself must answer, never the one-at-a-time path. */
export const noFallback: InsertOne = () => Promise.reject(new Error("fell back to one-at-a-time inserts"));

/** The error code a settled call rejected with, or its value. */
export function outcome(result: PromiseSettledResult<boolean>): boolean | string {
  if (result.status === "fulfilled") return result.value;
  const reason: unknown = result.reason;
  return isMarketplaceError(reason) ? reason.code : String(reason);
}

/** Authors and stored rows of a test group's database. */
export function insertHelpers(ctx: PostgresContext) {
  /** `count` new users, sorted by id (the order a batch locks them in). */
  async function authors(count: number): Promise<User[]> {
    const { users } = ctx.storage(1).repositories;
    const made = Array.from({ length: count }, () => buildUser());
    for (const user of made) await users.insert(user);
    return made.sort((a, b) => (a.id < b.id ? -1 : 1));
  }

  /** The stored ids among `ids`, read on a pool of its own. */
  async function storedIds(ids: string[]): Promise<string[]> {
    const { sql } = ctx.connection();
    const rows = await sql<{ id: string }[]>`select id from listings where id = any(${ids}::uuid[])`;
    return rows.map((row) => row.id).sort();
  }

  /** The author's stored listings, read on a pool of its own. */
  async function storedCount(userId: string): Promise<number> {
    const { sql } = ctx.connection();
    const [row] = await sql<
      { n: number }[]
    >`select count(*)::int as n from listings where user_id = ${userId}`;
    return row?.n ?? -1;
  }

  return { authors, storedIds, storedCount };
}

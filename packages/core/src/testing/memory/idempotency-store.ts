import type { IdempotencyStore } from "../../ports/idempotency-store.js";
import { copy, type MemoryState } from "./state.js";

/** The in-memory IdempotencyStore. Each method runs without an await inside, so it is atomic. */
export function createMemoryIdempotencyStore(state: MemoryState): IdempotencyStore {
  const records = state.idempotency;
  return {
    async claim(record, now) {
      const found = records.get(record.id);
      const free =
        !found ||
        found.expiresAt.getTime() <= now.getTime() ||
        (found.answer === null && found.leaseUntil.getTime() <= now.getTime());
      if (free) {
        records.set(record.id, { ...copy(record), answer: null });
        return { claimed: true };
      }
      return { claimed: false, record: copy(found) };
    },
    async complete(id, owner, answer) {
      const found = records.get(id);
      if (!found || found.owner !== owner || found.answer !== null) return false;
      found.answer = copy(answer);
      return true;
    },
    async release(id, owner) {
      const found = records.get(id);
      if (found && found.owner === owner && found.answer === null) records.delete(id);
    },
    async deleteExpired(now) {
      let removed = 0;
      for (const [id, record] of records) {
        if (record.expiresAt.getTime() <= now.getTime()) {
          records.delete(id);
          removed++;
        }
      }
      return removed;
    },
  };
}

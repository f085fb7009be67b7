import type { IdempotencyStore } from "../../ports/idempotency-store.js";
import { copy, copyIfLive, deleteExpired, type MemoryState } from "./state.js";

/** The in-memory IdempotencyStore. Each method runs without an await inside, so it is atomic. */
export function createMemoryIdempotencyStore(state: MemoryState): IdempotencyStore {
  const records = state.idempotency;
  const held = (id: string, owner: string) => {
    const found = records.get(id);
    return found !== undefined && found.owner === owner && found.result === null ? found : undefined;
  };
  return {
    async claim(record, now) {
      const found = records.get(record.id);
      const free =
        !found ||
        found.expiresAt.getTime() <= now.getTime() ||
        (found.result === null && found.leaseUntil.getTime() <= now.getTime());
      if (free) {
        records.set(record.id, { ...copy(record), result: null });
        return { claimed: true };
      }
      return { claimed: false, record: copy(found) };
    },
    async find(id, now) {
      return copyIfLive(records.get(id), now);
    },
    async complete(id, owner, result) {
      const found = held(id, owner);
      if (found) found.result = result;
      return found !== undefined;
    },
    async release(id, owner) {
      return held(id, owner) !== undefined && records.delete(id);
    },
    async deleteExpired(now) {
      return deleteExpired(records, now);
    },
  };
}

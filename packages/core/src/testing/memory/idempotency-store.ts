import type { IdempotencyStore } from "../../ports/idempotency-store.js";
import { copy, copyIfLive, deleteExpired, type MemoryState } from "./state.js";

const utf8 = new TextEncoder();

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
      const { caller: _, size: __, ...kept } = copy(found);
      return { claimed: false, record: kept };
    },
    async find(id, now) {
      const live = copyIfLive(records.get(id), now);
      if (!live) return null;
      const { caller: _, size: __, ...record } = live;
      return record;
    },
    async usage(caller, now) {
      let keys = 0;
      let bytes = 0;
      let nextExpiry: Date | null = null;
      for (const record of records.values()) {
        if (record.caller !== caller || record.expiresAt.getTime() <= now.getTime()) continue;
        keys++;
        bytes += record.size ?? 0;
        if (nextExpiry === null || record.expiresAt < nextExpiry)
          nextExpiry = new Date(record.expiresAt.getTime());
      }
      return { keys, bytes, nextExpiry };
    },
    async complete(id, owner, result) {
      const found = held(id, owner);
      if (found) {
        found.result = result;
        found.size = utf8.encode(result).byteLength;
      }
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

/** A counter of things in progress that refuses past its bound. */
export interface Slots {
  /** A release function when a slot was free (call it exactly once), else null. */
  tryTake(key?: string): (() => void) | null;
  /** Slots in use (for `key`, or in all). */
  inUse(key?: string): number;
}

/**
 * At most `max` at once, in all (`perKey` false) or for each key (`perKey` true: one caller's
 * share, so that one account cannot hold what every account needs).
 */
export function createSlots(max: number, perKey = false): Slots {
  if (!Number.isInteger(max) || max < 1) throw new RangeError("createSlots: max must be a positive integer");
  const counts = new Map<string, number>();
  const keyOf = (key?: string) => (perKey ? (key ?? "") : "");
  return {
    tryTake(key) {
      const k = keyOf(key);
      const used = counts.get(k) ?? 0;
      if (used >= max) return null;
      counts.set(k, used + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (counts.get(k) ?? 1) - 1;
        if (left <= 0) counts.delete(k);
        else counts.set(k, left);
      };
    },
    inUse: (key) =>
      key === undefined && perKey
        ? [...counts.values()].reduce((a, b) => a + b, 0)
        : (counts.get(keyOf(key)) ?? 0),
  };
}

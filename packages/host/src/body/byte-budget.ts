/** Bytes of request bodies held in memory by the process, against a fixed budget. */
export interface ByteBudget {
  /** Takes `n` bytes; false (nothing taken) when the budget would be exceeded. */
  take(n: number): boolean;
  give(n: number): void;
  /** Bytes held now. */
  held(): number;
}

/** Creates a budget of `max` bytes. */
export function createByteBudget(max: number): ByteBudget {
  let held = 0;
  return {
    take(n) {
      if (held + n > max) return false;
      held += n;
      return true;
    },
    give(n) {
      held = Math.max(0, held - n);
    },
    held: () => held,
  };
}

/** No budget: every take succeeds. */
export const UNBOUNDED: ByteBudget = { take: () => true, give: () => {}, held: () => 0 };

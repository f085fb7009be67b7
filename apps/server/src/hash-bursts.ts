import type { PasswordHasher, VerifyPurpose } from "@psm/core";

/** How long the hasher must stay idle after a burst before its memory goes back. */
export const HASH_QUIET_MS = 2_000;

/** The timer functions the trim is scheduled with (tests pass their own). */
export interface Timers {
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const NODE_TIMERS: Timers = {
  set: (callback, ms) => setTimeout(callback, ms).unref(),
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * `hasher`, calling `trim` once it has had no derivation in flight for `quietMs`. Each argon2id
 * derivation takes 19 MiB from glibc on a libuv thread. Mapping it afresh for every hash
 * (MALLOC_MMAP_THRESHOLD_) returned it at once but cost each hash 4,864 page faults: where a
 * fault is dear (14 µs on this project's Firecracker microVMs) a hash took 100 ms instead of 29
 * and a burst of logins ran at 4/s. With glibc's one arena (MALLOC_ARENA_MAX=1) the blocks are
 * reused from one hash to the next, no more are held than ran at once, and malloc_trim reaches
 * them all; this hands them back after the burst instead of at the next idle collection
 * (docs/performance.md, "Password hashes reuse their memory").
 */
export function trimAfterHashes(
  hasher: PasswordHasher,
  trim: () => void,
  quietMs: number = HASH_QUIET_MS,
  timers: Timers = NODE_TIMERS,
): PasswordHasher {
  let inFlight = 0;
  let pending: unknown;
  const begin = () => {
    inFlight += 1;
    if (pending !== undefined) timers.clear(pending);
    pending = undefined;
  };
  const end = () => {
    inFlight -= 1;
    if (inFlight > 0) return;
    pending = timers.set(() => {
      pending = undefined;
      trim();
    }, quietMs);
  };
  const counted =
    <A extends unknown[], R>(work: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      begin();
      try {
        return await work(...args);
      } finally {
        end();
      }
    };
  return {
    hash: counted((password: string) => hasher.hash(password)),
    verify: counted((hash: string, password: string, purpose?: VerifyPurpose) =>
      hasher.verify(hash, password, purpose),
    ),
    needsRehash: (hash) => hasher.needsRehash(hash),
  };
}

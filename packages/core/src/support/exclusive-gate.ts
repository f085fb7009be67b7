/**
 * A readers-writer gate for storage on one connection (SQLite, memory), where
 * a transaction open across awaits would otherwise take in every other
 * caller's statements: shared calls run together; an exclusive run waits for
 * the shared calls in progress, then runs alone while new shared calls wait.
 * Exclusive runs queue in order and go before shared calls that arrive after
 * them, so a steady read load cannot starve a unit of work.
 */
export interface ExclusiveGate {
  /** Runs `fn` beside other shared calls, after any exclusive run queued or running. */
  shared<T>(fn: () => Promise<T>): Promise<T>;
  /** Runs `fn` alone: after the shared calls in progress, before the ones that wait. */
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
}

/** A new, open gate. */
export function createExclusiveGate(): ExclusiveGate {
  let active = 0;
  let writers = 0; // queued or running exclusive runs
  let writerTail: Promise<void> = Promise.resolve();
  let drained: (() => void) | null = null;
  let released: Promise<void> = Promise.resolve();
  let release: () => void = () => {};

  const enterShared = async (): Promise<void> => {
    while (writers > 0) await released;
    active++;
  };
  const leaveShared = (): void => {
    active--;
    if (active === 0 && drained) drained();
  };

  return {
    async shared(fn) {
      if (writers > 0) await enterShared();
      else active++;
      try {
        return await fn();
      } finally {
        leaveShared();
      }
    },
    exclusive(fn) {
      if (writers === 0) released = new Promise((resolve) => (release = resolve));
      writers++;
      const run = writerTail.then(async () => {
        if (active > 0) await new Promise<void>((resolve) => (drained = resolve));
        drained = null;
        return fn();
      });
      const done = run.then(
        () => undefined,
        () => undefined,
      );
      writerTail = done.then(() => {
        writers--;
        if (writers === 0) release();
      });
      return run;
    },
  };
}

/**
 * Wraps every method of every member of `bundle` in `gate.shared`: repositories
 * whose calls wait while a unit of work runs. Non-function members are kept.
 */
export function sharedThrough<T extends object>(bundle: T, gate: ExclusiveGate): T {
  const out: Record<string, unknown> = {};
  for (const [name, repo] of Object.entries(bundle)) {
    out[name] = typeof repo === "object" && repo !== null ? wrapMethods(repo, gate) : repo;
  }
  return out as T;
}

function wrapMethods(repo: object, gate: ExclusiveGate): object {
  const out: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(repo)) {
    out[name] =
      typeof member === "function"
        ? (...args: unknown[]) => gate.shared(() => member.apply(repo, args))
        : member;
  }
  return out;
}

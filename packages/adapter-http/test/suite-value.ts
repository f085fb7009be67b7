import { afterAll, beforeAll } from "vitest";

/** Registers a teardown for after the describe block's tests; it runs even if setup failed later on. */
export type Defer = (teardown: () => Promise<void> | void) => void;

/**
 * A value the calling describe block's tests share: `make` builds it before them and defers its
 * teardowns, which run after them, last first. The view is returned at once, so the describe
 * body can hold it, but its members can be read only once the tests run: before that, or after
 * a failed `make`, a read throws `${what} (see beforeAll)`.
 */
export function useSuiteValue<T extends object>(
  what: string,
  make: (defer: Defer) => Promise<T>,
  timeoutMs?: number,
): T {
  let value: T | undefined;
  const teardowns: (() => Promise<void> | void)[] = [];
  beforeAll(async () => {
    value = await make((teardown) => teardowns.push(teardown));
  }, timeoutMs);
  afterAll(async () => {
    for (const teardown of teardowns.reverse()) await teardown();
  });
  // A proxy rather than getters per member: each value's view would otherwise restate its type.
  return new Proxy({} as T, {
    get(_, member) {
      if (value === undefined) throw new Error(`${what} (see beforeAll)`);
      const found: unknown = Reflect.get(value, member);
      return typeof found === "function" ? found.bind(value) : found;
    },
  });
}

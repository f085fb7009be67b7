import type { Repositories } from "@psm/core";

/** Told of each storage call: `start` as it begins, the function it returns as it settles. */
export interface StorageCallObserver {
  start(repository: string, method: string): (error?: unknown) => void;
}

/** Where metrics and traces learn of storage calls; observers may join after the marketplace is built. */
export interface StorageCalls {
  /** The repositories, each method call told to every observer (a unit of work is one call). */
  wrap(repos: Repositories): Repositories;
  observe(observer: StorageCallObserver): void;
}

/**
 * The storage calls of one process. Every repository method is wrapped once; with no observer a
 * call costs one array check. A unit of work counts as one call (`unitOfWork.run`), which is what
 * it is to the pool: one connection held for the transaction.
 */
export function createStorageCalls(): StorageCalls {
  const observers: StorageCallObserver[] = [];
  const call = (repository: string, method: string, fn: (...args: unknown[]) => unknown, self: object) =>
    function observed(...args: unknown[]): unknown {
      if (observers.length === 0) return fn.apply(self, args);
      const ends = observers.map((observer) => observer.start(repository, method));
      const end = (error?: unknown) => {
        for (const ended of ends) ended(error);
      };
      try {
        const result = fn.apply(self, args);
        if (result instanceof Promise) {
          return result.then(
            (value) => {
              end();
              return value;
            },
            (error: unknown) => {
              end(error);
              throw error;
            },
          );
        }
        end();
        return result;
      } catch (error) {
        end(error);
        throw error;
      }
    };
  return {
    wrap(repos) {
      const wrapped: Record<string, Record<string, unknown>> = {};
      for (const [name, repository] of Object.entries(repos) as [string, Record<string, unknown>][]) {
        const methods: Record<string, unknown> = {};
        for (const key of Object.keys(repository)) {
          const value = repository[key];
          methods[key] =
            typeof value === "function"
              ? call(name, key, value as (...args: unknown[]) => unknown, repository)
              : value;
        }
        wrapped[name] = methods;
      }
      return wrapped as unknown as Repositories;
    },
    observe(observer) {
      observers.push(observer);
    },
  };
}

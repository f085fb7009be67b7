import type { ListingRepository, Repositories, UnitOfWork, UserRepository } from "@psm/core";

/**
 * A counter of settled listing writes made through one set of repositories
 * (one process). The answer cache notes it before it reads and reuses an
 * answer only while it is unchanged.
 */
export interface ListingRevision {
  current(): number;
}

/**
 * Wraps `repos` so that every call that can change what a listing read
 * answers moves the revision once it has settled: listing inserts, updates,
 * deletes and views, a user's cascading delete, and a unit of work that made
 * one of these (after it commits or rolls back, since its writes are visible
 * only then). Give the
 * wrapped repositories to createMarketplace and the revision to createHttpApp
 * (`listingRevision`); without it the API keeps no answers.
 *
 * Moving it after the write, never before, is what makes a reader safe: one
 * that noted the revision before its read either sees the write or sees the
 * revision move, whatever the interleaving. A failed write moves it too (it
 * may have committed before the failure reached us).
 */
export function watchListingWrites(repos: Repositories): { repos: Repositories; revision: ListingRevision } {
  let revision = 0;
  const bump = () => {
    revision += 1;
  };
  return { repos: watch(repos, bump), revision: { current: () => revision } };
}

/**
 * `repos` with every listing write calling `wrote` once it settles. A unit of
 * work calls it once it ends, and only when its work wrote through the unit's
 * repositories (watched the same way), so a unit that touches no listing (a
 * key's creation) leaves the cache alone.
 */
function watch(repos: Repositories, wrote: () => void): Repositories {
  // Looked up on every access, so a repository replaced after this call (tests inject
  // failures that way) is the one used, watched as well.
  const wrappers = new WeakMap<object, object>();
  const wrap = <T extends object>(target: T, make: (target: T) => T): T => {
    let wrapper = wrappers.get(target) as T | undefined;
    if (wrapper === undefined) {
      wrapper = make(target);
      wrappers.set(target, wrapper);
    }
    return wrapper;
  };
  return new Proxy(repos, {
    get(object, key) {
      const value = Reflect.get(object, key) as unknown;
      if (typeof value !== "object" || value === null) return value;
      if (key === "listings") return wrap(value, (listings) => watching(listings, LISTING_WRITES, wrote));
      if (key === "users") return wrap(value, (users) => watching(users, USER_WRITES, wrote));
      if (key === "unitOfWork") {
        // The unit's writes become visible when it ends: the revision moves then, if it wrote.
        return wrap(value as UnitOfWork, (unit) => ({
          run: (work) => {
            let touched = false;
            const touch = () => {
              touched = true;
            };
            return unit
              .run((inner) => work(watch(inner, touch)))
              .finally(() => {
                if (touched) wrote();
              });
          },
        }));
      }
      return value;
    },
  });
}

const LISTING_WRITES: ReadonlySet<keyof ListingRepository> = new Set([
  "insertWithinSlots",
  "update",
  "delete",
  "incrementViews",
] as const);
const USER_WRITES: ReadonlySet<keyof UserRepository> = new Set(["deleteCascade"] as const);

/**
 * `target` with `writes` moving the revision once they settle. A proxy looks
 * each method up at call time, so the repository's own methods (a class's
 * included) are what run, even if they are replaced later.
 */
function watching<T extends object>(target: T, writes: ReadonlySet<PropertyKey>, bump: () => void): T {
  return new Proxy(target, {
    get(object, key) {
      const value = Reflect.get(object, key) as unknown;
      if (typeof value !== "function") return value;
      if (!writes.has(key)) return value.bind(object);
      return (...args: unknown[]) => (value.apply(object, args) as Promise<unknown>).finally(bump);
    },
  });
}

import type { ListingRepository, Repositories, UnitOfWork, UserRepository } from "@psm/core";
import { fnv1a } from "./fnv1a.js";

/**
 * A counter of settled listing writes made through one set of repositories
 * (one process). The answer cache notes it before it reads and reuses an
 * answer only while it is unchanged.
 */
export interface ListingRevision {
  current(): number;
  /**
   * Views settled through this process: of every listing, or with `id`, of the
   * listings that share its mark (one of a fixed number, so the count is bounded
   * in memory whatever the number of listings). A view changes only the count a
   * listing shows, so it moves this, not `current()`: pages stay cached (showing a
   * count at most their max age old, as their Cache-Control allows) and only the
   * viewed listing's own answer is read again.
   */
  views?(id?: string): number;
}

/**
 * Wraps `repos` so that every call that can change what a listing read
 * answers moves the revision once it has settled: listing inserts, updates and
 * deletes, a user's cascading delete, and a unit of work that made one (after
 * it commits or rolls back, since its writes are visible only then). A view moves the view
 * marks instead (`views`). Give the
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
  const marks = new Uint32Array(VIEW_MARKS);
  let views = 0;
  const viewed = (id: unknown) => {
    views += 1;
    if (typeof id === "string") marks[markOf(id)]! += 1;
  };
  const watched = watchRepos(repos, { write: bump, view: viewed }, (unit) => ({
    // Inside a unit writes are visible only once it ends: they are noted, and the revision (or
    // the viewed listings' marks) moves after it commits or rolls back. A unit that wrote nothing
    // a listing read shows (a key made, a password changed) leaves every kept answer in place.
    run: (work) => {
      let wrote = false;
      const viewedIds: unknown[] = [];
      const noting: Hooks = {
        write: () => {
          wrote = true;
        },
        view: (id) => viewedIds.push(id),
      };
      return unit
        .run((tx) => work(watchRepos(tx, noting)))
        .finally(() => {
          if (wrote) bump();
          for (const id of viewedIds) viewed(id);
        });
    },
  }));
  return {
    repos: watched,
    revision: {
      current: () => revision,
      views: (id) => (id === undefined ? views : marks[markOf(id)]!),
    },
  };
}

/** What a watched set of repositories tells of the calls that settled. */
interface Hooks {
  /** A write that can change what a listing read shows. */
  write(): void;
  /** A view of the listing `id`. */
  view(id: unknown): void;
}

/**
 * `repos` telling `hooks` of listing writes, views and a user's cascading
 * delete, with its unit of work replaced by `unit`'s wrapper when given.
 * Repositories are looked up on every access, so one replaced after this call
 * (tests inject failures that way) is the one used, watched as well.
 */
function watchRepos(
  repos: Repositories,
  hooks: Hooks,
  unit?: (unit: UnitOfWork) => UnitOfWork,
): Repositories {
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
      if (key === "listings")
        return wrap(value as ListingRepository, (listings) =>
          watchingViews(watching(listings, LISTING_WRITES, hooks.write), hooks.view),
        );
      if (key === "users") return wrap(value, (users) => watching(users, USER_WRITES, hooks.write));
      if (key === "unitOfWork" && unit !== undefined) return wrap(value as UnitOfWork, unit);
      return value;
    },
  });
}

const LISTING_WRITES: ReadonlySet<keyof ListingRepository> = new Set([
  "insertWithinSlots",
  "update",
  "delete",
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

const VIEW_MARKS = 4096;

/** The view mark of a listing id: FNV-1a over its characters. */
function markOf(id: string): number {
  return fnv1a(id) % VIEW_MARKS;
}

/** `listings` with each settled `incrementViews(id)` told to `viewed`, a failed one too (it may have committed). */
function watchingViews(listings: ListingRepository, viewed: (id: unknown) => void): ListingRepository {
  return new Proxy(listings, {
    get(object, key) {
      const value = Reflect.get(object, key) as unknown;
      if (key !== "incrementViews" || typeof value !== "function") return value;
      return (id: string) => (value.call(object, id) as Promise<boolean>).finally(() => viewed(id));
    },
  });
}

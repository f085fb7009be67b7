import type { Marketplace } from "@psm/core";
import { createAdmission } from "./answer-admission.js";
import type { ListingRevision } from "./listing-revision.js";

/**
 * The answer cache of anonymous listing reads, on every surface that shows
 * them: the JSON API's (`GET /api/listings` and `GET /api/listings/{id}`
 * without a credential) and the pages' (browse, search and a listing, for a
 * visitor who is not signed in): the encoded body and its ETag, reused while
 * all of these hold:
 *
 * - nothing was written to listings through this process since the read
 *   began (the listing revision of listing-revision.ts, which moves after
 *   every settled listing write): a read after a write in this process always
 *   shows it. A view is not such a write: it moves only the viewed listing's
 *   mark, which drops that listing's own answer; pages keep their entries and
 *   show a count at most the cache's maximum age old. Without a revision nothing is kept, since
 *   nothing would tell the cache of a write;
 * - no listing in the answer has reached its `expires_at` (which would change
 *   its status, or drop it from a page);
 * - the answer is younger than the cache's maximum age: the only bound on
 *   writes made by other processes on a shared PostgreSQL, and never above
 *   the `public, max-age` every anonymous answer already carries.
 *
 * An answer read through `read` is kept only when its key was read before
 * (answer-admission.ts): answers asked for once never push out those asked
 * for again. Signed-in callers are never answered from it, so an author always reads
 * their own writes, whichever process answers. Bounded in entries and bytes;
 * the least recently used entry goes first, and answers past their age go
 * within another maximum age without a request for them, so a server left
 * idle after traffic holds none. Requests for an answer being read
 * share that read (`read`), so a hot answer that has just aged out costs one
 * read, not one per request in flight.
 */

export interface EncodedAnswer {
  bytes: Buffer<ArrayBuffer>;
  /** The entity tag of the bytes; empty for answers that carry none (the pages). */
  tag: string;
  /**
   * The status, when it is not the route's success (a page's 400 for a bad filter): such an
   * answer is shared with the requests reading it at the same time, and never kept.
   */
  status?: number;
}

interface Entry extends EncodedAnswer {
  /** Marketplace time (ms) after which the entry is not used. */
  until: number;
  /** For one listing's answer: its id and its view mark when read; a view moves the mark. */
  viewed?: { id: string; mark: number };
}

export interface AnswerCacheOptions {
  /** Longest reuse of one answer, in ms; 0 turns the cache off. */
  maxAgeMs: number;
  /** The revision of the repositories the marketplace writes through; none turns the cache off. */
  revision?: ListingRevision | undefined;
  maxEntries?: number;
  maxBytes?: number;
  /** Told of each lookup's outcome, for metrics: a kept answer, none, or a read in flight shared. */
  onLookup?: ((outcome: AnswerCacheOutcome) => void) | undefined;
}

/** What one lookup of the answer cache found. */
export type AnswerCacheOutcome = "hit" | "miss" | "shared";

export interface AnswerCache {
  /** The kept answer under `key`, or undefined. */
  get(key: string): EncodedAnswer | undefined;
  /**
   * Keeps `answer` under `key`, if the listing revision is still `revision`
   * (noted before the read began), no view settled since `viewsAt` (the
   * revision's `views()` noted then; by default now) and the body's listings
   * allow it.
   */
  put(key: string, revision: number, answer: EncodedAnswer, body: unknown, viewsAt?: number): void;
  /**
   * Reads the answer under `key` with `read` and keeps it (as `put`) if `key`
   * was read before (its first read only notes it). While a
   * read of `key` is in flight, a request for it that arrives at the same
   * listing revision waits for that read instead of making its own: no write
   * settled since that read began, so it shows all the request may expect.
   * One that arrives after a write settled reads on its own. A failed read
   * fails every request that shared it, and the next one reads again. An
   * answer with a `status` is shared so but not kept.
   */
  read(key: string, read: () => Promise<ReadAnswer>, options?: ReadOptions): Promise<EncodedAnswer>;
  /** What it holds now: the answers kept and their bytes (as the bounds count them). */
  held(): { entries: number; bytes: number };
}

/** What a read of an answer gives: the encoded answer, and the body it encodes (for its listings' expiry). */
export interface ReadAnswer {
  answer: EncodedAnswer;
  body: unknown;
}

/** How `read` keeps an answer. */
export interface ReadOptions {
  /**
   * The answer may show view counts up to the cache's maximum age old, its own listing's too
   * (a page whose every view is itself a view: kept only until the next view, it would be kept
   * never). Views settled during or after its read neither keep it out nor drop it.
   */
  agedViews?: boolean;
}

interface Flight {
  revision: number;
  views: number;
  answer: Promise<EncodedAnswer>;
  /** Requests may share it whatever views settled since it began. */
  agedViews: boolean;
}

const DEFAULT_ENTRIES = 1024;
const DEFAULT_BYTES = 16 * 1024 * 1024;

/** The cache, or undefined when it is off (no max age, or no listing revision to keep it honest). */
export function createAnswerCache(
  m: Pick<Marketplace, "now">,
  options: AnswerCacheOptions,
): AnswerCache | undefined {
  const { revision: listings } = options;
  const told = options.onLookup ?? (() => {});
  if (!(options.maxAgeMs > 0) || listings === undefined) return undefined;
  const maxEntries = options.maxEntries ?? DEFAULT_ENTRIES;
  const maxBytes = options.maxBytes ?? DEFAULT_BYTES;
  const entries = new Map<string, Entry>();
  // Reads in flight, by key: at most one per request being answered, so bounded by the connections.
  const flights = new Map<string, Flight>();
  // Keys noted as read once, twice as many as the answers kept.
  const admission = createAdmission(2 * maxEntries);
  let bytes = 0;
  // Every entry was read at this revision; when it moves they all go at once.
  let revision = listings.current();

  const viewsNow = () => listings.views?.() ?? 0;
  const moved = (entry: Entry) =>
    entry.viewed !== undefined && listings.views?.(entry.viewed.id) !== entry.viewed.mark;
  const drop = (key: string, entry: Entry) => {
    entries.delete(key);
    bytes -= size(key, entry);
  };
  const current = () => {
    const now = listings.current();
    if (now !== revision) {
      entries.clear();
      bytes = 0;
      revision = now;
    }
    return now;
  };

  // An answer past its age is never used again, and an idle server would otherwise hold up to
  // maxBytes of them until the next request for each: every maximum age while any is kept, those
  // past theirs (or read before a write) go. A timer that keeps no process alive.
  let sweep: ReturnType<typeof setTimeout> | undefined;
  const sweepSoon = () => {
    if (sweep !== undefined) return;
    sweep = setTimeout(() => {
      sweep = undefined;
      current();
      const now = m.now().getTime();
      for (const [key, entry] of entries) if (now >= entry.until) drop(key, entry);
      if (entries.size > 0) sweepSoon();
    }, options.maxAgeMs);
    sweep.unref?.();
  };

  const find = (key: string) => {
    current();
    const entry = entries.get(key);
    if (entry === undefined) return undefined;
    if (m.now().getTime() >= entry.until || moved(entry)) {
      drop(key, entry);
      return undefined;
    }
    // Most recently used last: Map keeps insertion order.
    entries.delete(key);
    entries.set(key, entry);
    return entry;
  };

  const cache: AnswerCache = {
    get(key) {
      const entry = find(key);
      told(entry === undefined ? "miss" : "hit");
      return entry;
    },
    put(key, readAt, answer, body, viewsAt = viewsNow()) {
      if (current() !== readAt || viewsNow() !== viewsAt) return;
      const now = m.now().getTime();
      const until = Math.min(now + options.maxAgeMs, expiryOf(body, now));
      if (until <= now) return;
      const entry: Entry = { ...answer, until };
      const id = listingIdOf(body);
      if (id !== undefined && listings.views !== undefined) entry.viewed = { id, mark: listings.views(id) };
      const cost = size(key, entry);
      if (cost > maxBytes) return;
      const old = entries.get(key);
      if (old !== undefined) drop(key, old);
      entries.set(key, entry);
      bytes += cost;
      for (const [oldest, value] of entries) {
        if (entries.size <= maxEntries && bytes <= maxBytes) break;
        drop(oldest, value);
      }
      sweepSoon();
    },
    held: () => ({ entries: entries.size, bytes }),
    async read(key, read, { agedViews = false } = {}) {
      const revision = listings.current();
      const views = viewsNow();
      const shared = flights.get(key);
      if (
        shared !== undefined &&
        shared.revision === revision &&
        (shared.views === views || (agedViews && shared.agedViews))
      ) {
        told("shared");
        return shared.answer;
      }
      const keep = admission.admits(key);
      const flight: Flight = {
        revision,
        views,
        agedViews,
        answer: read().then(({ answer, body }) => {
          if (keep && answer.status === undefined) {
            if (agedViews) cache.put(key, revision, answer, listingsOnly(body));
            else cache.put(key, revision, answer, body, views);
          }
          return answer;
        }),
      };
      flights.set(key, flight);
      try {
        return await flight.answer;
      } finally {
        if (flights.get(key) === flight) flights.delete(key);
      }
    },
  };
  return cache;
}

/**
 * The URL without its origin, which keys an answer: the Host header is the client's to choose and
 * changes no answer.
 */
export function pathAndQuery(url: string): string {
  const path = url.indexOf("/", url.indexOf("//") + 2);
  return path === -1 ? "/" : url.slice(path);
}

function size(key: string, entry: Entry): number {
  return key.length * 2 + entry.bytes.byteLength + 64;
}

/** The body's listings as a page of them: their expiry counts, and no listing's view mark is noted. */
function listingsOnly(body: unknown): { items: unknown[] } {
  const { items, listing } = (body ?? {}) as { items?: unknown; listing?: unknown };
  return { items: Array.isArray(items) ? items : [listing] };
}

/** The id of the one listing an answer presents (`{listing}`), if it is one. */
function listingIdOf(body: unknown): string | undefined {
  const listing = (body as { listing?: { id?: unknown } } | null)?.listing;
  return typeof listing?.id === "string" ? listing.id : undefined;
}

/**
 * The earliest future `expires_at` of the presented listing or of the page's
 * items (Infinity if none): at that instant the answer would change.
 */
export function expiryOf(body: unknown, now: number): number {
  if (typeof body !== "object" || body === null) return Number.POSITIVE_INFINITY;
  // A page (`items`) or one listing (`{listing}`).
  const { items, listing } = body as { items?: unknown; listing?: unknown };
  const listings = Array.isArray(items) ? items : [listing];
  let earliest = Number.POSITIVE_INFINITY;
  for (const listing of listings) {
    const at = (listing as { expires_at?: unknown } | null)?.expires_at;
    if (typeof at !== "string") continue;
    const ms = Date.parse(at);
    if (ms > now && ms < earliest) earliest = ms;
  }
  return earliest;
}

import type { UrlVerdict } from "@psm/core";

/**
 * Recent verdicts by host name. A surface checks a URL before an idempotent write's unit of work
 * (which holds the storage) and the use case checks it again inside: the second check must not
 * repeat a DNS lookup. A verdict is only an answer at creation; every delivery looks the name up
 * again in its own socket, so remembering one for a minute weakens nothing.
 */
export interface VerdictMemo<T = UrlVerdict> {
  get(host: string, now: number): T | undefined;
  set(host: string, verdict: T, now: number): void;
}

/** A memo of at most `maxEntries` answers, each kept `ttlMs` (also the client metadata documents' cache). */
export function createVerdictMemo<T = UrlVerdict>(ttlMs = 60_000, maxEntries = 1024): VerdictMemo<T> {
  const entries = new Map<string, { verdict: T; until: number }>();
  return {
    get(host, now) {
      const entry = entries.get(host);
      if (!entry) return undefined;
      if (entry.until <= now) {
        entries.delete(host);
        return undefined;
      }
      return entry.verdict;
    },
    set(host, verdict, now) {
      entries.delete(host);
      // A Map keeps insertion order: the oldest entry goes first when it is full.
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
      entries.set(host, { verdict, until: now + ttlMs });
    },
  };
}

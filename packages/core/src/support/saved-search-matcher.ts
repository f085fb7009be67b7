import type { MatchReport } from "../use-cases/saved-searches/match-saved-searches.js";
import { type Rounds, startRounds } from "./rounds.js";

/** What the matcher needs of a marketplace: anything with a `savedSearches.match()`. */
export interface SavedSearchMatcherOwner {
  savedSearches: {
    /** One matching round; rejects when storage fails. */
    match(): Promise<MatchReport>;
  };
}

/** Options of startSavedSearchMatcher; every one has a default. */
export interface SavedSearchMatcherOptions {
  /** Milliseconds between rounds (default 1000). */
  intervalMs?: number;
  /** Told of a round that failed (default: console.error). The matcher keeps going. */
  onError?: (error: unknown) => void;
  /** Told of each round that checked a listing. */
  onReport?: (report: MatchReport) => void;
}

/**
 * Runs `owner.savedSearches.match()` on a timer, one round at a time (startRounds, as the mail
 * dispatcher and the webhook relay): new listings are matched against saved searches off the
 * request path, and a restarted process goes on from the cursor in storage. A round that leaves
 * more to match is followed by the next at once. `stop()` waits for the round in flight.
 */
export function startSavedSearchMatcher(
  owner: SavedSearchMatcherOwner,
  options: SavedSearchMatcherOptions = {},
): Rounds {
  const { onReport } = options;
  const rounds: Rounds = startRounds(() => owner.savedSearches.match(), {
    intervalMs: options.intervalMs ?? 1_000,
    label: "saved search matcher",
    onError: options.onError ?? ((error: unknown) => console.error("saved search matching failed", error)),
    onResult: (report) => {
      // A burst of listings is matched round after round, not one round a second; other work
      // still runs between two rounds.
      if (report.more) rounds.poke();
      if (report.listings > 0) onReport?.(report);
    },
  });
  return rounds;
}

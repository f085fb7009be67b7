/** The app in process over a real storage of its own, with the cast the strict-input cases act as. */
import { snapshotOf } from "../../fuzz/support/world.js";
import { useSuiteValue } from "../../suite-value.js";
import { type Cast, castOf } from "./cast.js";
import { openStorage } from "./storage.js";
import { type Target, target } from "./target.js";

const EPOCH = new Date(0);

/** What a strict-input test acts on. */
export interface StrictApp {
  t: Target;
  cast: Cast;
  /** Everything stored, as one string: equal before and after means a request wrote nothing. */
  snapshot(): Promise<string>;
}

/**
 * Opens a storage on `backend`, builds the app on it and signs up the cast
 * before the calling describe block's tests; closes the storage after them.
 * Its members may only be used once the tests run.
 */
export function useStrictApp(backend: "sqlite" | "postgres"): StrictApp {
  return useSuiteValue(
    "the app was not built",
    async (defer) => {
      const opened = await openStorage(backend, 4);
      defer(() => opened.close());
      const repos = opened.storage.repositories;
      const t = target({ repos });
      return { t, cast: await castOf(t), snapshot: () => snapshotOf(repos, EPOCH) };
    },
    60_000,
  );
}

/** The app in process over a real storage of its own, with the cast the strict-input cases act as. */
import type { Repositories } from "@psm/core";
import { afterAll, beforeAll } from "vitest";
import { snapshotOf } from "../../fuzz/support/world.js";
import { type Cast, castOf } from "./input-cases.js";
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
  let close: () => Promise<void> = async () => {};
  let app: { t: Target; cast: Cast; repos: Repositories } | undefined;
  beforeAll(async () => {
    const opened = await openStorage(backend, 4);
    close = opened.close;
    const repos = opened.storage.repositories;
    const t = target({ repos });
    app = { t, cast: await castOf(t), repos };
  }, 60_000);
  afterAll(async () => {
    await close();
  });
  const started = () => {
    if (!app) throw new Error("the app was not built (see beforeAll)");
    return app;
  };
  return {
    get t() {
      return started().t;
    },
    get cast() {
      return started().cast;
    },
    snapshot: () => snapshotOf(started().repos, EPOCH),
  };
}

import { afterEach, describe, expect, it, vi } from "vitest";
import { keepSearchIndexesMerged, type UpkeepTiming } from "./search-index-upkeep.js";

const TIMING: UpkeepTiming = {
  tickMs: 100,
  startDelayMs: 0,
  quietMs: 1_000,
  pagesPerStep: 64,
  restPerStepMs: 500,
};

/** A storage whose indexes take `steps` merge steps, counting the steps asked of it. */
function indexes(steps: number) {
  const state = { left: steps, calls: 0, pages: [] as number[] };
  const merge = (pages: number) => {
    state.calls += 1;
    state.pages.push(pages);
    state.left = Math.max(0, state.left - 1);
    return state.left > 0;
  };
  return { state, merge };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("keeping the search indexes merged", () => {
  it("merges once listing writes are quiet, a step a tick, and stops when the indexes are merged", () => {
    vi.useFakeTimers();
    let revision = 0;
    const { state, merge } = indexes(3);
    const upkeep = keepSearchIndexesMerged(
      merge,
      () => revision,
      vi.fn(),
      TIMING,
      () => Date.now(),
    );
    try {
      vi.advanceTimersByTime(900);
      expect(state.calls).toBe(0);
      vi.advanceTimersByTime(400);
      expect(state.calls).toBe(3);
      expect(state.pages).toEqual([64, 64, 64]);
      vi.advanceTimersByTime(10_000);
      expect(state.calls).toBe(3);
      // A write leaves segments to merge: the upkeep looks again after the next quiet second.
      revision += 1;
      state.left = 1;
      vi.advanceTimersByTime(10_000);
      expect(state.calls).toBe(4);
    } finally {
      upkeep.stop();
    }
  });

  it("stops merging at a write, and begins again only after the rest the steps taken earned", () => {
    vi.useFakeTimers();
    let revision = 0;
    const { state, merge } = indexes(100);
    const upkeep = keepSearchIndexesMerged(
      merge,
      () => revision,
      vi.fn(),
      TIMING,
      () => Date.now(),
    );
    try {
      vi.advanceTimersByTime(1_000 + 10 * TIMING.tickMs);
      const before = state.calls;
      expect(before).toBeGreaterThanOrEqual(10);
      revision += 1;
      vi.advanceTimersByTime(TIMING.tickMs);
      // Quiet again after a second, but the rest owed is half a second a step taken.
      vi.advanceTimersByTime(before * TIMING.restPerStepMs - 2 * TIMING.tickMs);
      expect(state.calls).toBe(before);
      vi.advanceTimersByTime(4 * TIMING.tickMs);
      expect(state.calls).toBeGreaterThan(before);
    } finally {
      upkeep.stop();
    }
  });

  it("merges nothing in the first moments after the start, even when quiet", () => {
    vi.useFakeTimers();
    const { state, merge } = indexes(2);
    const timing = { ...TIMING, startDelayMs: 30_000 };
    const upkeep = keepSearchIndexesMerged(
      merge,
      () => 0,
      vi.fn(),
      timing,
      () => Date.now(),
    );
    try {
      vi.advanceTimersByTime(29_900);
      expect(state.calls).toBe(0);
      vi.advanceTimersByTime(400);
      expect(state.calls).toBe(2);
    } finally {
      upkeep.stop();
    }
  });

  it("reports a failed step once and tries again only after the next write", () => {
    vi.useFakeTimers();
    let revision = 0;
    const onError = vi.fn();
    let calls = 0;
    const merge = () => {
      calls += 1;
      throw new Error("disk I/O error");
    };
    const upkeep = keepSearchIndexesMerged(
      merge,
      () => revision,
      onError,
      TIMING,
      () => Date.now(),
    );
    try {
      vi.advanceTimersByTime(5_000);
      expect(calls).toBe(1);
      expect(onError).toHaveBeenCalledTimes(1);
      revision += 1;
      vi.advanceTimersByTime(5_000);
      expect(calls).toBe(2);
    } finally {
      upkeep.stop();
    }
  });
});

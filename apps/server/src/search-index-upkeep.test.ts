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

const running: { stop(): void }[] = [];

/** The upkeep under fake timers, on a listing revision the test moves; stopped after each test. */
function upkeepOf(merge: (pages: number) => boolean, timing = TIMING, onError = vi.fn()) {
  vi.useFakeTimers();
  const writes = { revision: 0 };
  const upkeep = keepSearchIndexesMerged(
    merge,
    () => writes.revision,
    onError,
    timing,
    () => Date.now(),
  );
  running.push(upkeep);
  return { writes, onError };
}

afterEach(() => {
  for (const upkeep of running.splice(0)) upkeep.stop();
  vi.useRealTimers();
});

describe("keeping the search indexes merged", () => {
  it("merges once listing writes are quiet, a step a tick, and stops when the indexes are merged", () => {
    const { state, merge } = indexes(3);
    const { writes } = upkeepOf(merge);
    vi.advanceTimersByTime(900);
    expect(state.calls).toBe(0);
    vi.advanceTimersByTime(400);
    expect(state.calls).toBe(3);
    expect(state.pages).toEqual([64, 64, 64]);
    vi.advanceTimersByTime(10_000);
    expect(state.calls).toBe(3);
    // A write leaves segments to merge: the upkeep looks again after the next quiet second.
    writes.revision += 1;
    state.left = 1;
    vi.advanceTimersByTime(10_000);
    expect(state.calls).toBe(4);
  });

  it("stops merging at a write, and begins again only after the rest the steps taken earned", () => {
    const { state, merge } = indexes(100);
    const { writes } = upkeepOf(merge);
    vi.advanceTimersByTime(1_000 + 10 * TIMING.tickMs);
    const before = state.calls;
    expect(before).toBeGreaterThanOrEqual(10);
    writes.revision += 1;
    vi.advanceTimersByTime(TIMING.tickMs);
    // Quiet again after a second, but the rest owed is half a second a step taken.
    vi.advanceTimersByTime(before * TIMING.restPerStepMs - 2 * TIMING.tickMs);
    expect(state.calls).toBe(before);
    vi.advanceTimersByTime(4 * TIMING.tickMs);
    expect(state.calls).toBeGreaterThan(before);
  });

  it("merges nothing in the first moments after the start, even when quiet", () => {
    const { state, merge } = indexes(2);
    upkeepOf(merge, { ...TIMING, startDelayMs: 30_000 });
    vi.advanceTimersByTime(29_900);
    expect(state.calls).toBe(0);
    vi.advanceTimersByTime(400);
    expect(state.calls).toBe(2);
  });

  it("reports a failed step once and tries again only after the next write", () => {
    let calls = 0;
    const merge = () => {
      calls += 1;
      throw new Error("disk I/O error");
    };
    const { writes, onError } = upkeepOf(merge);
    vi.advanceTimersByTime(5_000);
    expect(calls).toBe(1);
    expect(onError).toHaveBeenCalledTimes(1);
    writes.revision += 1;
    vi.advanceTimersByTime(5_000);
    expect(calls).toBe(2);
  });
});

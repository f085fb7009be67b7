import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { collectStartupGarbage, collectWhenIdle, returnFreeMemory } from "./heap.js";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("collectWhenIdle", () => {
  it("collects once a whole quiet period follows traffic, never while requests come, and once per quiet spell", () => {
    const collect = vi.fn();
    const idle = collectWhenIdle(30_000, collect);

    vi.advanceTimersByTime(120_000);
    expect(collect).not.toHaveBeenCalled(); // no traffic yet: nothing to return

    for (let i = 0; i < 10; i++) {
      idle.touch();
      vi.advanceTimersByTime(20_000);
    }
    expect(collect).not.toHaveBeenCalled(); // a request in every period

    vi.advanceTimersByTime(60_000);
    expect(collect).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(300_000);
    expect(collect).toHaveBeenCalledTimes(1);

    idle.touch();
    vi.advanceTimersByTime(90_000);
    expect(collect).toHaveBeenCalledTimes(2);
    idle.stop();
  });
});

describe("collectStartupGarbage", () => {
  it("collects once, at the first quiet period after the listen, never while requests come", () => {
    const collect = vi.fn();
    const startup = collectStartupGarbage(1_000, collect);
    expect(collect).not.toHaveBeenCalled(); // not at the listen: the first requests come first
    for (let i = 0; i < 5; i++) {
      startup.touch();
      vi.advanceTimersByTime(1_000);
    }
    expect(collect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1_000);
    expect(collect).toHaveBeenCalledTimes(1);
    startup.touch();
    vi.advanceTimersByTime(60_000);
    expect(collect).toHaveBeenCalledTimes(1); // after traffic, collectWhenIdle's turn
  });

  it("collects an idle server's start at the end of its first quiet period", () => {
    const collect = vi.fn();
    collectStartupGarbage(1_000, collect);
    vi.advanceTimersByTime(1_000);
    expect(collect).toHaveBeenCalledTimes(1);
  });
});

describe("returnFreeMemory", () => {
  it("collects without leaving gc() exposed to the program", () => {
    vi.useRealTimers();
    const before = typeof (globalThis as { gc?: unknown }).gc;
    returnFreeMemory();
    expect(typeof (globalThis as { gc?: unknown }).gc).toBe(before);
  });
});

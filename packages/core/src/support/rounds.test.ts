import { afterEach, describe, expect, it, vi } from "vitest";
import { type RoundsOptions, startRounds } from "./rounds.js";

/** A round whose every run is a promise the test settles by hand; counts runs in flight. */
function manualRound() {
  const runs: { settle: (value: number) => void; fail: (error: Error) => void }[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const round = () =>
    new Promise<number>((resolve, reject) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const done = () => inFlight--;
      runs.push({
        settle: (value) => {
          done();
          resolve(value);
        },
        fail: (error) => {
          done();
          reject(error);
        },
      });
    });
  return { round, runs, maxInFlight: () => maxInFlight };
}

function onFakeTimers(options: Partial<RoundsOptions<number>> = {}) {
  vi.useFakeTimers();
  const manual = manualRound();
  const errors: unknown[] = [];
  const results: number[] = [];
  const rounds = startRounds(manual.round, {
    intervalMs: 10,
    onError: (error) => errors.push(error),
    onResult: (result) => results.push(result),
    ...options,
  });
  return { ...manual, rounds, errors, results };
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("startRounds", () => {
  it("runs a round every interval and hands each result to onResult", async () => {
    const { runs, rounds, results } = onFakeTimers({ intervalMs: 100 });
    await vi.advanceTimersByTimeAsync(99);
    expect(runs).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toHaveLength(1);
    runs[0]!.settle(1);
    await vi.advanceTimersByTimeAsync(100);
    runs[1]!.settle(2);
    await vi.advanceTimersByTimeAsync(0);
    expect(results).toEqual([1, 2]);
    await rounds.stop();
  });

  it("never overlaps rounds: ticks during a slow round are skipped, pokes fold into one more round", async () => {
    const { runs, rounds, maxInFlight } = onFakeTimers();
    await vi.advanceTimersByTimeAsync(10);
    rounds.poke();
    rounds.poke();
    await vi.advanceTimersByTimeAsync(100);
    expect(runs).toHaveLength(1);
    runs[0]!.settle(0);
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toHaveLength(2); // the pokes' round, right after, before the next tick
    runs[1]!.settle(0);
    await vi.advanceTimersByTimeAsync(9);
    expect(runs).toHaveLength(2); // the two pokes asked for one round, not two
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toHaveLength(3);
    runs[2]!.settle(0);
    expect(maxInFlight()).toBe(1);
    await rounds.stop();
  });

  it("runs a poked round on a later turn, not on the caller's", async () => {
    const { runs, rounds } = onFakeTimers({ intervalMs: 60_000 });
    rounds.poke();
    expect(runs).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toHaveLength(1);
    runs[0]!.settle(0);
    await rounds.stop();
  });

  it("stop waits for the round in flight, and nothing runs after it", async () => {
    const { runs, rounds } = onFakeTimers();
    await vi.advanceTimersByTimeAsync(10);
    let stopped = false;
    const stopping = rounds.stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(50);
    expect(stopped).toBe(false);
    runs[0]!.settle(0);
    await stopping;
    rounds.poke();
    await vi.advanceTimersByTimeAsync(100);
    expect(runs).toHaveLength(1);
    await rounds.stop(); // a second stop is harmless
  });

  it("a poke during the round that stop waits for starts nothing afterwards", async () => {
    const { runs, rounds } = onFakeTimers();
    await vi.advanceTimersByTimeAsync(10);
    rounds.poke();
    const stopping = rounds.stop();
    runs[0]!.settle(0);
    await stopping;
    await vi.advanceTimersByTimeAsync(100);
    expect(runs).toHaveLength(1);
  });

  it("hands rejections and synchronous throws to onError and keeps going", async () => {
    vi.useFakeTimers();
    const errors: unknown[] = [];
    let calls = 0;
    const rounds = startRounds(
      () => {
        calls++;
        if (calls === 1) throw new Error("not even a promise");
        return Promise.reject(new Error("storage is down"));
      },
      { intervalMs: 10, onError: (error) => errors.push(error) },
    );
    await vi.advanceTimersByTimeAsync(20);
    expect(errors).toEqual([new Error("not even a promise"), new Error("storage is down")]);
    await rounds.stop();
  });

  it("contains callbacks that throw: no unhandled rejection, the loop goes on", async () => {
    const { runs, rounds } = onFakeTimers({
      onResult: () => {
        throw new Error("the reporter is broken");
      },
      onError: () => {
        throw new Error("the logger is broken too");
      },
    });
    await vi.advanceTimersByTimeAsync(10);
    runs[0]!.settle(1);
    await vi.advanceTimersByTimeAsync(10);
    runs[1]!.fail(new Error("down"));
    await vi.advanceTimersByTimeAsync(10);
    expect(runs).toHaveLength(3);
    runs[2]!.settle(0);
    await rounds.stop();
  });

  it("unrefs its timer, so it never keeps a process alive on its own", async () => {
    const setIntervalSpy = vi.spyOn(globalThis, "setInterval");
    const rounds = startRounds(async () => 0, { intervalMs: 60_000, onError: () => {} });
    const timer = setIntervalSpy.mock.results[0]?.value as NodeJS.Timeout;
    expect(timer.hasRef()).toBe(false);
    await rounds.stop();
  });

  it("refuses an interval that is not a positive number, naming the loop", () => {
    for (const intervalMs of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => startRounds(async () => 0, { intervalMs, onError: () => {}, label: "relay" })).toThrow(
        new RangeError("relay: intervalMs must be a positive number"),
      );
    }
  });
});

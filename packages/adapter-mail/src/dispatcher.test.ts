import { createMarketplace, type Marketplace } from "@psm/core";
import { createTestDeps } from "@psm/core/testing";
import { afterEach, describe, expect, expectTypeOf, it, vi } from "vitest";
import {
  type MailDispatcherOptions,
  type MailDispatchReport,
  type MailQueueOwner,
  startMailDispatcher,
} from "./dispatcher.js";

const NOTHING: MailDispatchReport = { sent: 0, retried: 0, failed: 0 };

/** A structural stand-in for a marketplace: each round is a promise the test settles by hand. */
function fakeQueue() {
  const rounds: {
    options: unknown;
    settle: (report: MailDispatchReport) => void;
    fail: (e: Error) => void;
  }[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const owner: MailQueueOwner = {
    mail: {
      dispatchDue: (...args: [options?: { batchSize?: number }]) => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        return new Promise<MailDispatchReport>((resolve, reject) => {
          const done = () => inFlight--;
          rounds.push({
            options: args[0],
            settle: (report) => {
              done();
              resolve(report);
            },
            fail: (error) => {
              done();
              reject(error);
            },
          });
        });
      },
    },
  };
  return { owner, rounds, maxInFlight: () => maxInFlight };
}

/** A dispatcher on fake timers over a fake queue, which the test drives round by round. */
function onFakeQueue(options: MailDispatcherOptions) {
  vi.useFakeTimers();
  const queue = fakeQueue();
  return { queue, dispatcher: startMailDispatcher(queue.owner, options) };
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("startMailDispatcher", () => {
  it("runs a round every interval and reports only the rounds that did something", async () => {
    const reports: MailDispatchReport[] = [];
    const { queue, dispatcher } = onFakeQueue({
      intervalMs: 100,
      onReport: (r) => reports.push(r),
    });
    await vi.advanceTimersByTimeAsync(99);
    expect(queue.rounds).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(queue.rounds).toHaveLength(1);
    expect(queue.rounds[0]!.options).toBeUndefined();
    queue.rounds[0]!.settle(NOTHING);
    await vi.advanceTimersByTimeAsync(100);
    queue.rounds[1]!.settle({ sent: 2, retried: 1, failed: 0 });
    await vi.advanceTimersByTimeAsync(0);
    expect(reports).toEqual([{ sent: 2, retried: 1, failed: 0 }]);
    await dispatcher.stop();
  });

  it("never runs two rounds at once: ticks during a slow round are skipped", async () => {
    const { queue, dispatcher } = onFakeQueue({ intervalMs: 10 });
    await vi.advanceTimersByTimeAsync(10);
    dispatcher.poke();
    await vi.advanceTimersByTimeAsync(100); // ten ticks and a poke while the first round runs
    expect(queue.rounds).toHaveLength(1);
    queue.rounds[0]!.settle(NOTHING);
    await vi.advanceTimersByTimeAsync(0);
    // The poke that came during the round gets a round of its own, right after it.
    expect(queue.rounds).toHaveLength(2);
    queue.rounds[1]!.settle(NOTHING);
    await vi.advanceTimersByTimeAsync(10);
    queue.rounds[2]!.settle(NOTHING);
    expect(queue.maxInFlight()).toBe(1);
    await dispatcher.stop();
  });

  it("runs a round right after a poke, without waiting for the interval", async () => {
    const { queue, dispatcher } = onFakeQueue({ intervalMs: 60_000, batchSize: 5 });
    dispatcher.poke();
    expect(queue.rounds).toHaveLength(0); // not on the poking caller's own turn
    await vi.advanceTimersByTimeAsync(0);
    expect(queue.rounds).toHaveLength(1);
    expect(queue.rounds[0]!.options).toEqual({ batchSize: 5 });
    queue.rounds[0]!.settle(NOTHING);
    await dispatcher.stop();
  });

  it("stop waits for the round in flight, and no round starts after it", async () => {
    const { queue, dispatcher } = onFakeQueue({ intervalMs: 10 });
    await vi.advanceTimersByTimeAsync(10);
    let stopped = false;
    const stopping = dispatcher.stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(50);
    expect(stopped).toBe(false);
    queue.rounds[0]!.settle(NOTHING);
    await stopping;
    dispatcher.poke();
    await vi.advanceTimersByTimeAsync(100);
    expect(queue.rounds).toHaveLength(1);
    await dispatcher.stop(); // a second stop is harmless
  });

  it("hands a failed round to onError and keeps going, even when onError throws", async () => {
    const errors: unknown[] = [];
    const { queue, dispatcher } = onFakeQueue({
      intervalMs: 10,
      onError: (error) => {
        errors.push(error);
        throw new Error("the logger is broken too");
      },
    });
    await vi.advanceTimersByTimeAsync(10);
    queue.rounds[0]!.fail(new Error("database is down"));
    await vi.advanceTimersByTimeAsync(10);
    expect(errors).toEqual([new Error("database is down")]);
    expect(queue.rounds).toHaveLength(2);
    queue.rounds[1]!.settle(NOTHING);
    await dispatcher.stop();
  });

  it("catches a dispatchDue that throws instead of rejecting", async () => {
    vi.useFakeTimers();
    const errors: unknown[] = [];
    const owner: MailQueueOwner = {
      mail: {
        dispatchDue: () => {
          throw new Error("not even a promise");
        },
      },
    };
    const dispatcher = startMailDispatcher(owner, { intervalMs: 10, onError: (e) => errors.push(e) });
    await vi.advanceTimersByTimeAsync(20);
    expect(errors).toEqual([new Error("not even a promise"), new Error("not even a promise")]);
    await dispatcher.stop();
  });

  it("writes a failed round to console.error when no onError is given", async () => {
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
    const { queue, dispatcher } = onFakeQueue({ intervalMs: 10 });
    await vi.advanceTimersByTimeAsync(10);
    const failure = new Error("smtp is down");
    queue.rounds[0]!.fail(failure);
    await dispatcher.stop();
    expect(consoleError).toHaveBeenCalledWith("mail dispatch failed", failure);
  });

  it("unrefs its timer, so it never keeps a process alive on its own", async () => {
    const setIntervalSpy = vi.spyOn(globalThis, "setInterval");
    const dispatcher = startMailDispatcher(fakeQueue().owner, { intervalMs: 60_000 });
    const timer = setIntervalSpy.mock.results[0]?.value as NodeJS.Timeout;
    expect(timer.hasRef()).toBe(false);
    await dispatcher.stop();
  });

  it("refuses an interval that is not a positive number", () => {
    for (const intervalMs of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => startMailDispatcher(fakeQueue().owner, { intervalMs })).toThrow(RangeError);
    }
  });

  it("takes core's Marketplace as it is", () => {
    expectTypeOf<Marketplace>().toExtend<MailQueueOwner>();
  });

  it("sends the mail a real marketplace queued (core's in-memory storage and recording mailer)", async () => {
    const deps = createTestDeps();
    const marketplace = createMarketplace(deps);
    const dispatcher = startMailDispatcher(marketplace, { intervalMs: 10 });
    await marketplace.auth.signUp({ email: "new@example.com", password: "a-long-password" });
    await vi.waitFor(() => expect(deps.mailer.ofKind("email_verification")).toHaveLength(1));
    await dispatcher.stop();
  });
});

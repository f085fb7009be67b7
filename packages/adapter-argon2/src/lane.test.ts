import { describe, expect, it } from "vitest";
import { createLane } from "./lane.js";

/** A task the test finishes by hand. */
function deferred() {
  let finish!: () => void;
  let fail!: (error: Error) => void;
  const done = new Promise<void>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  return { done, finish, fail };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("createLane", () => {
  it("runs at most `limit` tasks at once, the rest in arrival order", async () => {
    const run = createLane(2);
    const tasks = [deferred(), deferred(), deferred(), deferred()];
    const started: number[] = [];
    const calls = tasks.map((task, i) =>
      run(() => {
        started.push(i);
        return task.done;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    tasks[1]!.finish();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    tasks[0]!.finish();
    tasks[2]!.finish();
    tasks[3]!.finish();
    await Promise.all(calls);
    expect(started).toEqual([0, 1, 2, 3]);
  });

  it("frees the slot of a task that fails", async () => {
    const run = createLane(1);
    const failing = deferred();
    const first = run(() => failing.done);
    const second = run(async () => "served");
    failing.fail(new Error("boom"));
    await expect(first).rejects.toThrow("boom");
    await expect(second).resolves.toBe("served");
  });

  it("refuses at once past its queue, without running the task", async () => {
    const run = createLane(1, { max: 1, refuse: () => new Error("full") });
    const busy = deferred();
    let ran = false;
    const first = run(() => busy.done);
    const waiting = run(async () => undefined);
    await expect(
      run(async () => {
        ran = true;
      }),
    ).rejects.toThrow("full");
    expect(ran).toBe(false);
    busy.finish();
    await Promise.all([first, waiting]);
  });

  it("rejects a limit that is not a positive integer", () => {
    for (const limit of [0, -1, 1.5, Number.NaN]) expect(() => createLane(limit)).toThrow(RangeError);
  });

  it("rejects a queue bound that is not a non-negative integer, which would bound nothing", () => {
    const refuse = () => new Error("full");
    for (const max of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => createLane(1, { max, refuse })).toThrow(RangeError);
    }
    expect(() => createLane(1, { max: 0, refuse })).not.toThrow();
  });
});

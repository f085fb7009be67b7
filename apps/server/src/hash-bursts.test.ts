import type { PasswordHasher } from "@psm/core";
import { describe, expect, it } from "vitest";
import { type Timers, trimAfterHashes } from "./hash-bursts.js";

/** Timers the test fires by hand: what is armed, and for how long. */
function manualTimers() {
  const armed = new Map<number, { callback: () => void; ms: number }>();
  let next = 0;
  const timers: Timers = {
    set: (callback, ms) => {
      next += 1;
      armed.set(next, { callback, ms });
      return next;
    },
    clear: (handle) => {
      armed.delete(handle as number);
    },
  };
  const fire = () => {
    const all = [...armed.values()];
    armed.clear();
    for (const timer of all) timer.callback();
  };
  return { timers, armed, fire };
}

/** A hasher whose derivations end when the test says. */
function heldHasher() {
  const waiting: { settle: () => void }[] = [];
  const hold = <T>(value: T, fails = false) =>
    new Promise<T>((resolve, reject) => {
      waiting.push({ settle: () => (fails ? reject(new Error("refused")) : resolve(value)) });
    });
  const hasher: PasswordHasher = {
    hash: (password) => hold(`hash of ${password}`, password === "refused"),
    verify: (hash, password) => hold(hash === `hash of ${password}`),
    needsRehash: (hash) => hash.startsWith("old"),
  };
  const settleNext = async () => {
    waiting.shift()?.settle();
    // Let the wrapper's finally run.
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { hasher, settleNext };
}

describe("trimAfterHashes", () => {
  it("trims once the last derivation of a burst has been quiet for the given time, and never during one", async () => {
    const { timers, armed, fire } = manualTimers();
    const { hasher, settleNext } = heldHasher();
    let trims = 0;
    const wrapped = trimAfterHashes(hasher, () => trims++, 2_000, timers);

    const first = wrapped.verify("hash of a", "a");
    const second = wrapped.hash("b");
    await settleNext();
    // One derivation still runs: nothing is armed.
    expect(armed.size).toBe(0);
    await settleNext();
    await expect(first).resolves.toBe(true);
    await expect(second).resolves.toBe("hash of b");
    expect([...armed.values()].map((timer) => timer.ms)).toEqual([2_000]);
    expect(trims).toBe(0);
    fire();
    expect(trims).toBe(1);
  });

  it("a derivation begun within the quiet spell puts the trim off to the end of its own", async () => {
    const { timers, armed, fire } = manualTimers();
    const { hasher, settleNext } = heldHasher();
    let trims = 0;
    const wrapped = trimAfterHashes(hasher, () => trims++, 2_000, timers);

    const first = wrapped.verify("hash of a", "a", "login");
    await settleNext();
    await first;
    expect(armed.size).toBe(1);
    const again = wrapped.verify("hash of a", "wrong", "confirm");
    expect(armed.size).toBe(0);
    await settleNext();
    await expect(again).resolves.toBe(false);
    expect(armed.size).toBe(1);
    fire();
    expect(trims).toBe(1);
  });

  it("a refused derivation ends like any other, and the refusal reaches the caller", async () => {
    const { timers, armed, fire } = manualTimers();
    const { hasher, settleNext } = heldHasher();
    let trims = 0;
    const wrapped = trimAfterHashes(hasher, () => trims++, 2_000, timers);

    const refused = expect(wrapped.hash("refused")).rejects.toThrow("refused");
    await settleNext();
    await refused;
    expect(armed.size).toBe(1);
    fire();
    expect(trims).toBe(1);
    expect(wrapped.needsRehash("old hash")).toBe(true);
    expect(wrapped.needsRehash("hash of a")).toBe(false);
  });
});

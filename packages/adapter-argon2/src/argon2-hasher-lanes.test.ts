import { isMarketplaceError } from "@psm/core";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { createArgon2Hasher } from "./argon2-hasher.js";

// crypto.argon2 with a hand on it: every derivation is recorded as it reaches
// libuv (by its password), and those the test holds start only when released.
// So the tests assert which work runs, waits or is refused, never how long
// anything takes; the rest is real argon2 at the cheapest parameters.
const gate = vi.hoisted(() => {
  const hold: (password: string) => boolean = () => false;
  return { started: [] as string[], hold, held: [] as (() => void)[] };
});

vi.mock("node:crypto", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:crypto")>();
  const argon2: typeof real.argon2 = (algorithm, parameters, callback) => {
    const password = String(parameters.message);
    gate.started.push(password);
    const run = () => real.argon2(algorithm, parameters, callback);
    if (gate.hold(password)) gate.held.push(run);
    else run();
  };
  return { ...real, argon2 };
});

const CHEAP = { memoryKiB: 8, passes: 1, parallelism: 1 };
/** Lets every queued callback and microtask run. */
const tick = () => new Promise((resolve) => setImmediate(resolve));

/** Holds the derivations of passwords starting with `prefix` until `release()`. */
function holdPasswords(prefix: string) {
  gate.hold = (password) => password.startsWith(prefix);
  return {
    release() {
      gate.hold = () => false;
      for (const run of gate.held.splice(0)) run();
    },
  };
}

/** The indexes of the calls that have settled, fulfilled or rejected, as they settle. */
function settledOf(calls: Promise<unknown>[]): Set<number> {
  const settled = new Set<number>();
  for (const [i, call] of calls.entries()) {
    const done = () => settled.add(i);
    call.then(done, done);
  }
  return settled;
}

async function expectRefusal(call: Promise<unknown>, retryAfter: number) {
  const reason = await call.then(
    () => "resolved",
    (error: unknown) => error,
  );
  expect(isMarketplaceError(reason, "service_unavailable")).toBe(true);
  expect(reason).toMatchObject({ retryAfter });
}

beforeEach(() => {
  gate.started.length = 0;
  gate.held.length = 0;
  gate.hold = () => false;
});

describe("argon2id hasher: logins, confirmations and new hashes in separate lanes", () => {
  it("refuses confirmations beyond their queue while a login runs past them", async () => {
    const hasher = createArgon2Hasher({
      params: CHEAP,
      verifyConcurrency: 1,
      confirmConcurrency: 1,
      confirmQueue: 2,
      retryAfterSeconds: 3,
    });
    const passwords = ["confirm-1", "confirm-2", "confirm-3", "confirm-4"];
    const stored = await Promise.all(passwords.map((pw) => hasher.hash(pw)));
    const owner = await hasher.hash("owner-password");
    gate.started.length = 0;
    const confirmations = holdPasswords("confirm-");

    // One runs (held), two wait, the fourth finds the confirmation queue full.
    const burst = stored.map((hash, i) => hasher.verify(hash, passwords[i]!, "confirm"));
    const settled = settledOf(burst);
    const login = hasher.verify(owner, "owner-password", "login");
    await tick();
    expect(gate.started).toEqual(["confirm-1", "owner-password"]);
    expect([...settled]).toEqual([3]);
    await expectRefusal(burst[3]!, 3);

    // The login is answered while every confirmation before it is still unanswered.
    expect(await login).toBe(true);
    expect([...settled]).toEqual([3]);

    confirmations.release();
    expect(await Promise.all(burst.slice(0, 3))).toEqual([true, true, true]);
    expect(gate.started).toEqual(["confirm-1", "owner-password", "confirm-2", "confirm-3"]);
    // The queue drained: the next confirmation is served.
    expect(await hasher.verify(stored[3]!, "confirm-4", "confirm")).toBe(true);
  });

  it("bounds the login queue, and a confirmation is served while logins fill it", async () => {
    const hasher = createArgon2Hasher({
      params: CHEAP,
      verifyConcurrency: 1,
      verifyQueue: 2,
      retryAfterSeconds: 4,
    });
    const stored = await hasher.hash("login-password");
    const own = await hasher.hash("own-password");
    gate.started.length = 0;
    const logins = holdPasswords("login-");

    // No purpose means a login: one runs (held), two wait, the fourth is refused.
    const burst = [1, 2, 3, 4].map(() => hasher.verify(stored, "login-password"));
    const settled = settledOf(burst);
    await tick();
    expect([...settled]).toEqual([3]);
    await expectRefusal(burst[3]!, 4);

    expect(await hasher.verify(own, "own-password", "confirm")).toBe(true);
    expect([...settled]).toEqual([3]);

    logins.release();
    expect(await Promise.all(burst.slice(0, 3))).toEqual([true, true, true]);
    expect(gate.started).toEqual(["login-password", "own-password", "login-password", "login-password"]);
  });

  it("keeps logins and confirmations out of the hash lane's queue", async () => {
    const hasher = createArgon2Hasher({ params: CHEAP, hashConcurrency: 1, hashQueue: 1 });
    const stored = await hasher.hash("kept-password");
    const signUps = holdPasswords("new-");
    const hashes = [hasher.hash("new-1"), hasher.hash("new-2")];
    await expectRefusal(hasher.hash("new-3"), 2);

    expect(await hasher.verify(stored, "kept-password")).toBe(true);
    expect(await hasher.verify(stored, "kept-password", "confirm")).toBe(true);
    expect(await hasher.verify(stored, "wrong-password", "confirm")).toBe(false);

    signUps.release();
    await Promise.all(hashes);
  });
});

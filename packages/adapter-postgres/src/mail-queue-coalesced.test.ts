import type { Repositories } from "@psm/core";
import { buildUser, testId } from "@psm/core/testing";
import { beforeEach, expect, it } from "vitest";
import { describePostgres } from "../test/hooks.js";

const T0 = new Date("2026-03-01T12:00:00.000Z");
const MINUTE = 60_000;
const WINDOW = 15 * MINUTE;
const at = (ms: number) => new Date(T0.getTime() + ms);
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// enqueueCoalesced beside the queue's other paths, and racing itself across pools as several
// server processes would (DESIGN.md "Notifications").
describePostgres("postgres coalesced mail", (ctx) => {
  let repos: Repositories;
  let userId: string;
  let ids = 0;
  const job = (offset: number, ref = "listing/sender") => ({
    id: testId(at(offset + ids++)),
    userId,
    kind: "message_received" as const,
    ref,
    createdAt: at(offset),
  });
  const pendingAbout = async (ref: string) => {
    const rows = await ctx.connection().sql<{ n: number }[]>`
      select count(*)::int as n from mail_jobs where user_id = ${userId} and ref = ${ref} and status = 'pending'`;
    return rows[0]?.n;
  };

  beforeEach(async () => {
    await ctx.database().truncate();
    repos = ctx.storage().repositories;
    const user = buildUser();
    await repos.users.insert(user);
    userId = user.id;
  });

  it("claims, reschedules, fails and sends coalesced jobs; a job being sent still holds back the next", async () => {
    const first = job(0);
    expect(await repos.mailQueue.enqueueCoalesced(first, WINDOW)).toBe(true);
    expect(await repos.mailQueue.claimDue(at(0), 10, MINUTE)).toMatchObject([{ id: first.id, attempts: 1 }]);
    expect(await repos.mailQueue.enqueueCoalesced(job(1), WINDOW)).toBe(false);
    await repos.mailQueue.reschedule(first.id, at(2 * MINUTE), "timeout");
    expect(await repos.mailQueue.findById(first.id)).toMatchObject({
      status: "pending",
      nextAttemptAt: at(2 * MINUTE),
      lastError: "timeout",
    });
    expect(await repos.mailQueue.claimDue(at(2 * MINUTE), 10, MINUTE)).toMatchObject([{ attempts: 2 }]);
    await repos.mailQueue.markFailed(first.id, "550");
    const second = job(3 * MINUTE);
    expect(await repos.mailQueue.enqueueCoalesced(second, WINDOW)).toBe(true);
    expect(await repos.mailQueue.findById(second.id)).toMatchObject({
      status: "pending",
      nextAttemptAt: at(WINDOW),
    });
    await repos.mailQueue.claimDue(at(WINDOW), 10, MINUTE);
    await repos.mailQueue.markSent(second.id, at(WINDOW));
    expect(await repos.mailQueue.findById(second.id)).toMatchObject({ status: "sent" });
  });

  it("a late reschedule leaves a job settled after its lease ran out, and the newer pending job alone", async () => {
    const first = job(0);
    await repos.mailQueue.enqueueCoalesced(first, WINDOW);
    // A process claims it and stalls past its lease; another claims it again and sends it.
    await repos.mailQueue.claimDue(at(0), 10, MINUTE);
    await repos.mailQueue.claimDue(at(MINUTE), 10, MINUTE);
    await repos.mailQueue.markSent(first.id, at(MINUTE));
    const next = job(2 * MINUTE);
    expect(await repos.mailQueue.enqueueCoalesced(next, WINDOW)).toBe(true);
    // The first process's send fails now: its reschedule must neither fail on the unique index
    // nor put the sent job back in the queue.
    await repos.mailQueue.reschedule(first.id, at(3 * MINUTE), "timeout");
    expect(await repos.mailQueue.findById(first.id)).toMatchObject({ status: "sent", lastError: null });
    expect((await repos.mailQueue.claimDue(at(WINDOW), 10, MINUTE)).map((claimed) => claimed.id)).toEqual([
      next.id,
    ]);
  });

  it("never coalesces jobs without a ref: reset mails queue side by side", async () => {
    for (const offset of [0, 1, 2]) {
      await repos.mailQueue.enqueue({
        id: testId(at(offset)),
        userId,
        kind: "password_reset",
        createdAt: at(offset),
      });
    }
    expect(await repos.mailQueue.claimDue(at(2), 10, MINUTE)).toHaveLength(3);
  });

  it("a call racing an uncommitted job about the same conversation waits for its end: nothing after a commit, a job after a rollback", async () => {
    for (const ending of ["commit", "rollback"] as const) {
      const ref = `listing/${ending}`;
      const other = ctx.storage(2).repositories;
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let entered: () => void = () => {};
      const inside = new Promise<void>((resolve) => {
        entered = resolve;
      });
      const unit = repos.unitOfWork
        .run(async (tx) => {
          expect(await tx.mailQueue.enqueueCoalesced(job(0, ref), WINDOW)).toBe(true);
          entered();
          await held;
          if (ending === "rollback") throw new Error("rolled back");
        })
        .catch((error: unknown) => error);
      await inside;
      let settled = false;
      const racing = other.mailQueue.enqueueCoalesced(job(MINUTE, ref), WINDOW).then((stored) => {
        settled = true;
        return stored;
      });
      await wait(300);
      // It waits on the unique index for the first transaction, rather than stored a second job.
      expect(settled).toBe(false);
      release();
      await unit;
      expect(await racing).toBe(ending === "rollback");
      expect(await pendingAbout(ref)).toBe(1);
    }
  });

  it("of many calls racing across four pools for one conversation, one stores a job", async () => {
    const pools = Array.from({ length: 4 }, () => ctx.storage(4).repositories);
    for (let round = 0; round < 5; round++) {
      const refs = [`listing-${round}/a`, `listing-${round}/b`];
      const calls = Array.from({ length: 40 }, (_, i) =>
        pools[i % 4]!.mailQueue.enqueueCoalesced(job(i, refs[i % 2]!), WINDOW),
      );
      expect((await Promise.all(calls)).filter(Boolean)).toHaveLength(2);
      for (const ref of refs) expect(await pendingAbout(ref)).toBe(1);
    }
  });
});

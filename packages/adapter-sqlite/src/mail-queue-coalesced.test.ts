import type { Repositories } from "@psm/core";
import { buildUser, testId } from "@psm/core/testing";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { openMigrated, removeTempDbs } from "./test-support/temp-db.js";

const T0 = new Date("2026-03-01T12:00:00.000Z");
const MINUTE = 60_000;
const WINDOW = 15 * MINUTE;
const at = (ms: number) => new Date(T0.getTime() + ms);

// The queue's other paths beside mail_jobs_pending_ref_unique (DESIGN.md "Notifications").
describe("the mail queue with coalesced jobs", () => {
  let close: () => Promise<void>;
  let repos: Repositories;
  let userId: string;
  const job = (offset: number) => ({
    id: testId(at(offset)),
    userId,
    kind: "message_received" as const,
    ref: "listing/sender",
    createdAt: at(offset),
  });

  beforeEach(async () => {
    const storage = await openMigrated();
    close = () => storage.close();
    repos = storage.repositories;
    const user = buildUser();
    await repos.users.insert(user);
    userId = user.id;
  });
  afterEach(() => close());
  afterAll(removeTempDbs);

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

  it("takes a coalesced job back with the unit of work that queued it", async () => {
    const first = job(0);
    await expect(
      repos.unitOfWork.run(async (unit) => {
        await unit.mailQueue.enqueueCoalesced(first, WINDOW);
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await repos.mailQueue.findById(first.id)).toBeNull();
    expect(await repos.mailQueue.enqueueCoalesced(job(1), WINDOW)).toBe(true);
  });
});

import { describe, expect, it } from "vitest";
import type { Repositories } from "../../ports/repositories.js";
import { testId } from "../builders.js";
import { at, type ContractContext, HOUR, ids, MINUTE, seedUser, T0 } from "./context.js";

const LEASE = MINUTE;

async function enqueue(repos: Repositories, userId: string, createdAt: Date): Promise<string> {
  const id = testId(createdAt);
  await repos.mailQueue.enqueue({ id, userId, kind: "password_reset", createdAt });
  return id;
}

/** Cases of MailQueueRepository. */
export function mailQueueCases(ctx: ContractContext): void {
  describe("mailQueue", () => {
    it("enqueue stores a pending job due at once", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const createdAt = new Date("2026-03-01T12:00:00.654Z");
      const id = await enqueue(repos, user.id, createdAt);
      expect(await repos.mailQueue.findById(id)).toEqual({
        id,
        userId: user.id,
        kind: "password_reset",
        ref: null,
        status: "pending",
        attempts: 0,
        nextAttemptAt: createdAt,
        lastError: null,
        createdAt,
        sentAt: null,
      });
      expect(await repos.mailQueue.findById(testId(T0))).toBeNull();
    });

    it("reports the backlog: pending jobs, and the earliest due time once it is due", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      expect(await repos.mailQueue.backlog(T0)).toEqual({ pending: 0, oldestDueAt: null });
      const first = await enqueue(repos, user.id, at(MINUTE));
      await enqueue(repos, user.id, at(2 * MINUTE));
      const sent = await enqueue(repos, user.id, at(30 * 1000));
      await repos.mailQueue.markSent(sent, at(MINUTE));
      expect(await repos.mailQueue.backlog(at(5 * MINUTE))).toEqual({ pending: 2, oldestDueAt: at(MINUTE) });
      expect(await repos.mailQueue.backlog(T0)).toEqual({ pending: 2, oldestDueAt: null });
      await repos.mailQueue.markFailed(first, "gave up");
      expect(await repos.mailQueue.backlog(at(5 * MINUTE))).toEqual({
        pending: 1,
        oldestDueAt: at(2 * MINUTE),
      });
    });

    it("enqueue with a limit stores only below the limit, counting from `since`", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const limit = { since: T0, max: 2 };
      const job = (createdAt: Date) => ({
        id: testId(createdAt),
        userId: user.id,
        kind: "password_reset" as const,
        createdAt,
      });
      await enqueue(repos, user.id, new Date(T0.getTime() - MINUTE)); // before `since`: not counted
      expect(await repos.mailQueue.enqueue(job(at(1)), limit)).toBe(true);
      expect(await repos.mailQueue.enqueue(job(at(2)), limit)).toBe(true);
      const held = job(at(3));
      expect(await repos.mailQueue.enqueue(held, limit)).toBe(false);
      expect(await repos.mailQueue.findById(held.id)).toBeNull();
      expect(await repos.mailQueue.countSince(user.id, "password_reset", T0)).toBe(2);
    });

    it.skipIf(!ctx.concurrency)("concurrent limited enqueues never pass the limit", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          repos.mailQueue.enqueue(
            { id: testId(at(i)), userId: user.id, kind: "password_reset", createdAt: at(i) },
            { since: T0, max: 3 },
          ),
        ),
      );
      expect(results.filter(Boolean)).toHaveLength(3);
      expect(await repos.mailQueue.countSince(user.id, "password_reset", T0)).toBe(3);
    });

    it("claimDue takes only due pending jobs, leases them and returns them", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const due = await enqueue(repos, user.id, T0);
      const later = await enqueue(repos, user.id, at(10 * MINUTE));
      const sent = await enqueue(repos, user.id, T0);
      const failed = await enqueue(repos, user.id, T0);
      await repos.mailQueue.markSent(sent, T0);
      await repos.mailQueue.markFailed(failed, "refused");
      const now = at(MINUTE);
      const claimed = await repos.mailQueue.claimDue(now, 10, LEASE);
      expect(claimed).toEqual([
        expect.objectContaining({
          id: due,
          status: "pending",
          attempts: 1,
          nextAttemptAt: at(MINUTE + LEASE),
        }),
      ]);
      expect(await repos.mailQueue.findById(due)).toEqual(claimed[0]);
      expect((await repos.mailQueue.findById(later))?.attempts).toBe(0);
    });

    it("claimDue orders by next attempt then id and honours limit", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const [a, b, c, d] = [
        await enqueue(repos, user.id, T0),
        await enqueue(repos, user.id, T0),
        await enqueue(repos, user.id, at(1)),
        await enqueue(repos, user.id, at(2)),
      ];
      // c becomes due before everything else; a and b share one instant, so id decides.
      await repos.mailQueue.reschedule(c, at(-5), "retry");
      await repos.mailQueue.reschedule(d, at(HOUR), "retry");
      const first = await repos.mailQueue.claimDue(at(10), 2, LEASE);
      expect(ids(first)).toEqual([c, a]);
      expect(ids(await repos.mailQueue.claimDue(at(10), 2, LEASE))).toEqual([b]);
      expect(await repos.mailQueue.claimDue(at(10), 2, LEASE)).toEqual([]);
    });

    it("a lease hides a claimed job until it ends", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const id = await enqueue(repos, user.id, T0);
      expect(ids(await repos.mailQueue.claimDue(T0, 5, LEASE))).toEqual([id]);
      expect(await repos.mailQueue.claimDue(at(LEASE - 1), 5, LEASE)).toEqual([]);
      const again = await repos.mailQueue.claimDue(at(LEASE), 5, LEASE);
      expect(again).toEqual([expect.objectContaining({ id, attempts: 2, nextAttemptAt: at(2 * LEASE) })]);
    });

    it.skipIf(!ctx.concurrency)("two concurrent claimDue calls never return the same job", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const jobs: string[] = [];
      for (let i = 0; i < 10; i++) jobs.push(await enqueue(repos, user.id, at(i)));
      const [one, two] = await Promise.all([
        repos.mailQueue.claimDue(at(MINUTE), 10, LEASE),
        repos.mailQueue.claimDue(at(MINUTE), 10, LEASE),
      ]);
      const all = [...ids(one), ...ids(two)];
      expect(new Set(all).size).toBe(all.length);
      expect(all.sort()).toEqual([...jobs].sort());
      for (const id of jobs) expect((await repos.mailQueue.findById(id))?.attempts).toBe(1);
    });

    it("reschedule, markSent and markFailed record the outcome", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const [retried, sent, failed] = [
        await enqueue(repos, user.id, T0),
        await enqueue(repos, user.id, T0),
        await enqueue(repos, user.id, T0),
      ];
      await repos.mailQueue.claimDue(T0, 10, LEASE);
      await repos.mailQueue.reschedule(retried, at(5 * MINUTE), "timeout");
      await repos.mailQueue.markSent(sent, at(2));
      await repos.mailQueue.markFailed(failed, "550 no such user");
      expect(await repos.mailQueue.findById(retried)).toMatchObject({
        status: "pending",
        attempts: 1,
        nextAttemptAt: at(5 * MINUTE),
        lastError: "timeout",
        sentAt: null,
      });
      expect(await repos.mailQueue.findById(sent)).toMatchObject({
        status: "sent",
        attempts: 1,
        sentAt: at(2),
      });
      expect(await repos.mailQueue.findById(failed)).toMatchObject({
        status: "failed",
        lastError: "550 no such user",
      });
      // Sent and failed jobs are never claimed again; the rescheduled one is, once due.
      expect(await repos.mailQueue.claimDue(at(5 * MINUTE - 1), 10, LEASE)).toEqual([]);
      expect(ids(await repos.mailQueue.claimDue(at(HOUR), 10, LEASE))).toEqual([retried]);
    });

    it("a late reschedule leaves a job another process already settled as it is", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const [sent, failed] = [await enqueue(repos, user.id, T0), await enqueue(repos, user.id, T0)];
      await repos.mailQueue.claimDue(T0, 10, LEASE);
      await repos.mailQueue.markSent(sent, at(2));
      await repos.mailQueue.markFailed(failed, "550 no such user");
      await repos.mailQueue.reschedule(sent, at(5 * MINUTE), "late timeout");
      await repos.mailQueue.reschedule(failed, at(5 * MINUTE), "late timeout");
      expect(await repos.mailQueue.findById(sent)).toMatchObject({ status: "sent", lastError: null });
      expect(await repos.mailQueue.findById(failed)).toMatchObject({
        status: "failed",
        lastError: "550 no such user",
      });
      expect(await repos.mailQueue.claimDue(at(HOUR), 10, LEASE)).toEqual([]);
    });

    it("countSince counts one user's jobs of a kind created after a time, whatever their status", async () => {
      const repos = ctx.repos();
      const [user, other] = [await seedUser(repos), await seedUser(repos)];
      await enqueue(repos, user.id, at(-2 * HOUR));
      const recent = [
        await enqueue(repos, user.id, at(-30 * MINUTE)),
        await enqueue(repos, user.id, at(-MINUTE)),
      ];
      await enqueue(repos, other.id, at(-MINUTE));
      await repos.mailQueue.markSent(recent[0]!, at(-29 * MINUTE));
      await repos.mailQueue.markFailed(recent[1]!, "refused");
      expect(await repos.mailQueue.countSince(user.id, "password_reset", at(-HOUR))).toBe(2);
      expect(await repos.mailQueue.countSince(user.id, "password_reset", at(-3 * HOUR))).toBe(3);
      expect(await repos.mailQueue.countSince(user.id, "password_reset", T0)).toBe(0);
      expect(await repos.mailQueue.countSince(other.id, "password_reset", at(-HOUR))).toBe(1);
    });
  });
}

import type { MailJob, MailKind } from "../../domain/mail-job.js";
import type { MailQueueRepository, ResetRequest } from "../../ports/mail-queue-repository.js";
import { backlogOf, copy, copyOrNull, insertNew, type MemoryState, requireUser } from "./state.js";

function dueOrder(a: MailJob, b: MailJob): number {
  const byTime = a.nextAttemptAt.getTime() - b.nextAttemptAt.getTime();
  if (byTime !== 0) return byTime;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function requestOrder(a: ResetRequest, b: ResetRequest): number {
  const byTime = a.at.getTime() - b.at.getTime();
  if (byTime !== 0) return byTime;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The in-memory MailQueueRepository. */
export function createMemoryMailQueueRepository(state: MemoryState): MailQueueRepository {
  const { mailJobs, resetRequests } = state;
  const countSince = (userId: string, kind: MailKind, since: Date) => {
    let count = 0;
    for (const job of mailJobs.values()) {
      if (job.userId === userId && job.kind === kind && job.createdAt.getTime() >= since.getTime()) count++;
    }
    return count;
  };
  return {
    async enqueue(
      job: { id: string; userId: string; kind: MailKind; createdAt: Date },
      limit?: { since: Date; max: number },
    ) {
      // Count and insert in one synchronous step, so concurrent calls cannot both pass.
      if (limit && countSince(job.userId, job.kind, limit.since) >= limit.max) return false;
      requireUser(state, job.userId);
      insertNew(mailJobs, job.id, {
        id: job.id,
        userId: job.userId,
        kind: job.kind,
        ref: null,
        status: "pending",
        attempts: 0,
        nextAttemptAt: new Date(job.createdAt.getTime()),
        lastError: null,
        createdAt: new Date(job.createdAt.getTime()),
        sentAt: null,
      });
      return true;
    },
    async enqueueCoalesced(
      job: { id: string; userId: string; kind: MailKind; ref: string; createdAt: Date },
      intervalMs: number,
    ) {
      requireUser(state, job.userId);
      const same = [...mailJobs.values()].filter(
        (row) => row.userId === job.userId && row.kind === job.kind && row.ref === job.ref,
      );
      if (same.some((row) => row.status === "pending")) return false;
      const last = Math.max(...same.map((row) => row.createdAt.getTime()), Number.NEGATIVE_INFINITY);
      const due = Math.max(job.createdAt.getTime(), last + intervalMs);
      insertNew(mailJobs, job.id, {
        id: job.id,
        userId: job.userId,
        kind: job.kind,
        ref: job.ref,
        status: "pending",
        attempts: 0,
        nextAttemptAt: new Date(due),
        lastError: null,
        createdAt: new Date(job.createdAt.getTime()),
        sentAt: null,
      });
      return true;
    },
    async claimDue(now: Date, limit: number, leaseMs: number) {
      const due = [...mailJobs.values()]
        .filter((job) => job.status === "pending" && job.nextAttemptAt.getTime() <= now.getTime())
        .sort(dueOrder)
        .slice(0, Math.max(0, limit));
      // The lease is taken in the same synchronous step as the selection.
      for (const job of due) {
        job.attempts += 1;
        job.nextAttemptAt = new Date(now.getTime() + leaseMs);
      }
      return due.map(copy);
    },
    async markSent(id: string, now: Date) {
      const job = mailJobs.get(id);
      if (!job) return;
      job.status = "sent";
      job.sentAt = new Date(now.getTime());
    },
    async reschedule(id: string, nextAttemptAt: Date, error: string) {
      const job = mailJobs.get(id);
      // A job another process settled while this one's send outlasted its lease stays settled.
      if (job?.status !== "pending") return;
      job.nextAttemptAt = new Date(nextAttemptAt.getTime());
      job.lastError = error;
    },
    async markFailed(id: string, error: string) {
      const job = mailJobs.get(id);
      if (!job) return;
      job.status = "failed";
      job.lastError = error;
    },
    async findById(id: string) {
      return copyOrNull(mailJobs.get(id));
    },
    async backlog(now: Date) {
      const pending = [...mailJobs.values()].filter((job) => job.status === "pending");
      return backlogOf(
        pending.map((job) => job.nextAttemptAt),
        now,
      );
    },
    async countSince(userId: string, kind: MailKind, since: Date) {
      return countSince(userId, kind, since);
    },
    async noteResetRequest(request: ResetRequest, max: number) {
      if (resetRequests.size >= max) return false;
      insertNew(resetRequests, request.id, copy(request));
      return true;
    },
    async takeResetRequests(limit: number) {
      // Selected and removed in one synchronous step: no other caller can take them too.
      const taken = [...resetRequests.values()].sort(requestOrder).slice(0, Math.max(0, limit));
      for (const request of taken) resetRequests.delete(request.id);
      return taken;
    },
  };
}

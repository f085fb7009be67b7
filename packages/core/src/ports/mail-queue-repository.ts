import type { MailJob, MailKind } from "../domain/mail-job.js";

/** Durable queue of mail to send. Shared by every server process on one database. */
export interface MailQueueRepository {
  /**
   * Stores the job pending, attempts 0, due at createdAt, and answers true.
   * With `limit`, the count and the insert are one atomic step: the job is
   * stored only if fewer than `limit.max` jobs of its kind were created for
   * the user at or after `limit.since`; false when it was held back.
   */
  enqueue(
    job: { id: string; userId: string; kind: MailKind; createdAt: Date },
    limit?: { since: Date; max: number },
  ): Promise<boolean>;
  /**
   * Claims up to `limit` pending jobs due at `now`: each claimed job gets
   * attempts + 1 and next_attempt_at = now + leaseMs, so no other process
   * claims it while it is being sent. Two processes never claim one job.
   */
  claimDue(now: Date, limit: number, leaseMs: number): Promise<MailJob[]>;
  markSent(id: string, now: Date): Promise<void>;
  /** Back to pending (a job being sent), due at `nextAttemptAt`, recording why. */
  reschedule(id: string, nextAttemptAt: Date, error: string): Promise<void>;
  markFailed(id: string, error: string): Promise<void>;
  findById(id: string): Promise<MailJob | null>;
  /** Jobs of one kind created for the user at or after `since` (per-address mail limit). */
  countSince(userId: string, kind: MailKind, since: Date): Promise<number>;
}

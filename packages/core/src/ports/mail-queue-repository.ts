import type { MailJob, MailKind } from "../domain/mail-job.js";

/** A password reset someone asked for, stored until a mail round resolves it. */
export interface ResetRequest {
  id: string;
  /** The normalised address, as asked for: it may have no account. */
  email: string;
  at: Date;
}

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
   * Queues a mail about `job.ref` (a conversation) at most once per `intervalMs`, in one atomic
   * step: nothing when a job for the same user, kind and ref is still pending (it will tell of
   * the newest state when it goes); otherwise a pending job, due at once, or when `intervalMs`
   * has passed since the last job for that ref was created. Answers whether a job was stored.
   */
  enqueueCoalesced(
    job: { id: string; userId: string; kind: MailKind; ref: string; createdAt: Date },
    intervalMs: number,
  ): Promise<boolean>;
  /**
   * Claims up to `limit` pending jobs due at `now`: each claimed job gets
   * attempts + 1 and next_attempt_at = now + leaseMs, so no other process
   * claims it while it is being sent. Two processes never claim one job.
   */
  claimDue(now: Date, limit: number, leaseMs: number): Promise<MailJob[]>;
  markSent(id: string, now: Date): Promise<void>;
  /**
   * A job being sent is due again at `nextAttemptAt`, recording why. Only a job still pending
   * moves: one another process sent or gave up on (this send outlasted its lease) stays settled.
   */
  reschedule(id: string, nextAttemptAt: Date, error: string): Promise<void>;
  markFailed(id: string, error: string): Promise<void>;
  findById(id: string): Promise<MailJob | null>;
  /**
   * The queue's depth and age, for metrics: jobs still pending (due or not), and the earliest due
   * time among them when it is at or before `now` (null when none is due).
   */
  backlog(now: Date): Promise<{ pending: number; oldestDueAt: Date | null }>;
  /** Jobs of one kind created for the user at or after `since` (per-address mail limit). */
  countSince(userId: string, kind: MailKind, since: Date): Promise<number>;
  /**
   * Stores a reset request for a later mail round, without looking the address
   * up: one insert, the same for any address. Answers false, storing nothing,
   * when `max` requests are already waiting. The bound is exact where writes
   * are serialised (memory, SQLite); on PostgreSQL concurrent notes may pass it
   * by at most their own number.
   */
  noteResetRequest(request: ResetRequest, max: number): Promise<boolean>;
  /**
   * Removes and returns up to `limit` waiting requests, oldest first (by `at`,
   * then id). Two callers never get the same request, across processes too.
   * Inside a unit of work the removal commits with the unit, so work that
   * fails after the take puts the requests back by rolling back.
   */
  takeResetRequests(limit: number): Promise<ResetRequest[]>;
}

// The raw statements of mail-queue-repository.ts, apart so that query-plans.test.ts can plan them.

/**
 * enqueueCoalesced's one statement, atomic under SQLite's one writer: a pending job due at
 * max(created_at, the last job about the ref + interval), unless one about the same (user, kind,
 * ref) is pending already, which the partial unique index mail_jobs_pending_ref_unique turns into
 * DO NOTHING. The last job is one seek of mail_jobs_user_id_kind_ref_created_at_idx. `WHERE true`
 * tells the parser the ON CONFLICT belongs to the INSERT, not to a join of the SELECT.
 */
export const ENQUEUE_COALESCED_SQL = `INSERT INTO mail_jobs
  (id, user_id, kind, ref, status, attempts, next_attempt_at, created_at)
  SELECT @id, @userId, @kind, @ref, 'pending', 0, max(@createdAt, coalesce(
    (SELECT max(created_at) FROM mail_jobs WHERE user_id = +@userId AND kind = +@kind AND ref = +@ref) + @intervalMs,
    @createdAt)), @createdAt
  WHERE true
  ON CONFLICT (user_id, kind, ref) WHERE status = 'pending' DO NOTHING`;

/** enqueueCoalesced's parameters. */
export interface CoalescedParams {
  id: string;
  userId: string;
  kind: string;
  ref: string;
  createdAt: number;
  intervalMs: number;
}

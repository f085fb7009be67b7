import type { Deps } from "../../deps.js";
import { RESET_MAILS_PER_ADDRESS_PER_HOUR } from "../../domain/limits.js";
import type { MailQueueRepository } from "../../ports/mail-queue-repository.js";

/** A password reset someone asked for: the normalised address, and when. */
export interface ResetRequest {
  email: string;
  at: Date;
}

/** Requests past this many waiting for a round are dropped, as the per-address limit drops mail: silently. */
export const MAX_WAITING_RESET_REQUESTS = 10_000;

const HOUR_MS = 60 * 60 * 1000;

// Per mail queue, so each marketplace (and each test) on storage of its own has its own.
const waiting = new WeakMap<MailQueueRepository, ResetRequest[]>();

/**
 * Notes a reset request for the next mail round of this process
 * (`mail.dispatchDue`). The request itself touches no storage, so answering
 * it costs the same whether or not the address has an account.
 */
export function noteResetRequest(queue: MailQueueRepository, request: ResetRequest): void {
  const list = waiting.get(queue) ?? [];
  if (list.length < MAX_WAITING_RESET_REQUESTS) list.push(request);
  waiting.set(queue, list);
}

/**
 * Queues the noted requests, oldest first: everything that depends on the
 * account, done in the mail round rather than while the request is answered.
 * A known address gets one durable job, held back silently past
 * RESET_MAILS_PER_ADDRESS_PER_HOUR (the count and the insert are one atomic
 * step, across processes too); an unknown one gets nothing. When storage
 * fails, the requests not yet queued wait for the next round.
 */
export async function queueResetRequests(deps: Pick<Deps, "repos" | "ids">): Promise<void> {
  const queue = deps.repos.mailQueue;
  const requests = waiting.get(queue) ?? [];
  waiting.delete(queue);
  for (const [i, { email, at }] of requests.entries()) {
    try {
      const user = await deps.repos.users.findByEmail(email);
      if (!user) continue;
      await queue.enqueue(
        { id: deps.ids.newId(at), userId: user.id, kind: "password_reset", createdAt: at },
        { since: new Date(at.getTime() - HOUR_MS), max: RESET_MAILS_PER_ADDRESS_PER_HOUR },
      );
    } catch (error) {
      const later = waiting.get(queue) ?? [];
      waiting.set(queue, [...requests.slice(i), ...later].slice(0, MAX_WAITING_RESET_REQUESTS));
      throw error;
    }
  }
}

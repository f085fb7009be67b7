import type { Deps } from "../../deps.js";
import { RESET_MAILS_PER_ADDRESS_PER_HOUR } from "../../domain/limits.js";

/**
 * Requests waiting past this many are dropped, as the per-address limit drops
 * mail: silently, with the same answer. Requests are limited per client IP
 * first, and each round drains RESET_REQUESTS_PER_ROUND, so only a flood from
 * thousands of addresses, or rounds that stopped, ever reaches it; the bound
 * keeps such a flood from growing the table without end.
 */
export const MAX_WAITING_RESET_REQUESTS = 10_000;

/** Requests one mail round resolves at most; the rest wait for the next round. */
export const RESET_REQUESTS_PER_ROUND = 100;

const HOUR_MS = 60 * 60 * 1000;

/**
 * Stores a reset request for the next mail round (`mail.dispatchDue`), before
 * the caller is answered, so a crash after the answer loses none. It is one
 * insert whatever the address: answering costs the same whether or not the
 * address has an account.
 */
export async function noteResetRequest(
  deps: Pick<Deps, "repos" | "clock" | "ids">,
  email: string,
): Promise<void> {
  const at = deps.clock.now();
  await deps.repos.mailQueue.noteResetRequest(
    { id: deps.ids.newId(at), email, at },
    MAX_WAITING_RESET_REQUESTS,
  );
}

/**
 * Resolves the waiting requests, oldest first, up to `max`: everything that
 * depends on the account, done in the mail round rather than while the
 * request is answered. A known address gets one durable job (with the
 * request's id), held back silently past RESET_MAILS_PER_ADDRESS_PER_HOUR; an
 * unknown one gets nothing. Answers how many requests were resolved.
 *
 * Each request is taken and resolved in a unit of work of its own, so the take
 * commits only with its outcome: when storage fails, the unit rolls back, the
 * request waits for the next round, and the error ends this round. One unit per
 * request rather than per batch: on PostgreSQL a unit then holds at most one
 * user's row lock (the per-address limit's), so it can never deadlock with
 * another process's round or a request that locks users.
 */
export async function queueResetRequests(
  deps: Pick<Deps, "repos">,
  max = RESET_REQUESTS_PER_ROUND,
): Promise<number> {
  let resolved = 0;
  while (resolved < max) {
    const took = await deps.repos.unitOfWork.run(async (repos) => {
      const [request] = await repos.mailQueue.takeResetRequests(1);
      if (!request) return false;
      const user = await repos.users.findByEmail(request.email);
      if (user) {
        await repos.mailQueue.enqueue(
          { id: request.id, userId: user.id, kind: "password_reset", createdAt: request.at },
          { since: new Date(request.at.getTime() - HOUR_MS), max: RESET_MAILS_PER_ADDRESS_PER_HOUR },
        );
      }
      return true;
    });
    if (!took) break;
    resolved++;
  }
  return resolved;
}

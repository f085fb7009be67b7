import type { Deps } from "../../deps.js";
import { IDEMPOTENCY_LEASE_MS, IDEMPOTENCY_TTL_MS, isIdempotencyKey } from "../../domain/idempotency.js";
import { MarketplaceError } from "../../errors.js";
import type { StoredAnswer } from "../../ports/idempotency-store.js";
import type { Repositories } from "../../ports/repositories.js";
import { sha256Hex, toHex } from "../../support/crypto.js";

/** A keyed request: whose, which route, which key, and a digest of what was sent. */
export interface IdempotentRequest {
  /** Whose key it is: a user id, or another caller identity the edge chooses (a sign-up's email). */
  scope: string;
  method: string;
  /** The route template (`/api/listings/{id}`), not the concrete path. */
  route: string;
  /** The Idempotency-Key value. */
  key: string;
  /** A digest of the request as sent (method, path, content type, body). */
  fingerprint: string;
}

/** What a keyed request's work answers, and whether that answer is kept for retries. */
export interface IdempotentWork {
  answer: StoredAnswer;
  /**
   * False for answers a corrected retry should not meet again (invalid input,
   * a bad credential, a body too large, a rate limit, a server fault): the key
   * is released. A kept answer with status 400 or more rolls its writes back.
   */
  final: boolean;
}

/** The answer to give, and whether it is a replay of an earlier one. */
export interface IdempotentOutcome {
  replayed: boolean;
  answer: StoredAnswer;
}

/** Thrown inside the unit of work to roll back the writes of a failed request. */
class Discard {
  readonly work: IdempotentWork;
  constructor(work: IdempotentWork) {
    this.work = work;
  }
}

/**
 * Runs `work` at most once per (scope, method, route, key). The key is claimed
 * first, visibly, so a concurrent retry is told `idempotency_in_flight`; then
 * the work's writes and its answer commit in one unit of work, so no crash can
 * leave a write without its answer or an answer without its write. A claim
 * whose request died is taken over once its lease ends. A finished key replays
 * its answer; a different request under a used key is `idempotency_key_reused`.
 * `work` gets repositories bound to the unit of work (`bind` makes the
 * marketplace of them).
 */
export async function runIdempotent<M>(
  deps: Pick<Deps, "repos" | "clock" | "random">,
  bind: (repos: Repositories) => M,
  request: IdempotentRequest,
  work: (marketplace: M) => Promise<IdempotentWork>,
): Promise<IdempotentOutcome> {
  if (!isIdempotencyKey(request.key)) throw new MarketplaceError("invalid_idempotency_key");
  const store = deps.repos.idempotency;
  const id = sha256Hex(JSON.stringify([request.scope, request.method, request.route, request.key]));
  const owner = toHex(deps.random.bytes(16));
  const now = deps.clock.now();
  const claim = await store.claim(
    {
      id,
      fingerprint: request.fingerprint,
      owner,
      leaseUntil: new Date(now.getTime() + IDEMPOTENCY_LEASE_MS),
      expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
    },
    now,
  );
  if (!claim.claimed) {
    const { record } = claim;
    if (record.fingerprint !== request.fingerprint) throw new MarketplaceError("idempotency_key_reused");
    if (record.answer) return { replayed: true, answer: record.answer };
    const wait = Math.max(1, Math.ceil((record.leaseUntil.getTime() - now.getTime()) / 1000));
    throw new MarketplaceError("idempotency_in_flight", undefined, { retryAfter: wait });
  }
  try {
    const done = await deps.repos.unitOfWork.run(async (repos) => {
      const result = await work(bind(repos));
      if (!result.final || result.answer.status >= 400) throw new Discard(result);
      if (!(await repos.idempotency.complete(id, owner, result.answer))) {
        // The lease ran out and a retry took the key over: this run's writes must not land.
        throw new MarketplaceError("idempotency_in_flight", undefined, { retryAfter: 1 });
      }
      return result;
    });
    return { replayed: false, answer: done.answer };
  } catch (error) {
    if (!(error instanceof Discard)) {
      await store.release(id, owner);
      throw error;
    }
    // Nothing was written: keeping the answer needs no transaction with it.
    if (error.work.final) await store.complete(id, owner, error.work.answer);
    else await store.release(id, owner);
    return { replayed: false, answer: error.work.answer };
  }
}

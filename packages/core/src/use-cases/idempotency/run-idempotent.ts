import type { Deps } from "../../deps.js";
import {
  IDEMPOTENCY_LEASE_MS,
  IDEMPOTENCY_MAX_BYTES_PER_CALLER,
  IDEMPOTENCY_MAX_KEYS_PER_CALLER,
  IDEMPOTENCY_TTL_MS,
  isIdempotencyKey,
} from "../../domain/idempotency.js";
import { MarketplaceError } from "../../errors.js";
import type { IdempotencyRecord, IdempotencyStore } from "../../ports/idempotency-store.js";
import type { Repositories } from "../../ports/repositories.js";
import { sha256Hex, toHex } from "../../support/crypto.js";

/** A keyed request: whose, doing what, under which key, and a digest of what was sent. */
export interface IdempotentRequest {
  /** Whose key it is: a user id, or another caller identity the edge chooses (a sign-up's email). */
  scope: string;
  /** What is being done, as the edge names it (`create_listing`): a key means one thing per scope and operation. */
  operation: string;
  /** The key the caller sent (an Idempotency-Key value, a form's nonce). */
  key: string;
  /** A digest of the request as sent, so the same key with another request is told apart. */
  fingerprint: string;
  /**
   * The parts an earlier release digested in place of `operation`, while keys
   * it stored may still be live (at most IDEMPOTENCY_TTL_MS after it last ran):
   * such a key is replayed, or seen in flight, instead of running again.
   * See core's DESIGN.md, "Idempotency keys after 1.2".
   */
  formerOperation?: readonly string[];
}

/** What a keyed request's work produced, and what becomes of its writes and its key. */
export interface IdempotentWork {
  /** What a replay of the request needs (the edge's encoded answer); stored as given. */
  result: string;
  /** Whether the work's writes commit. False rolls every one of them back. */
  commit: boolean;
  /**
   * Whether `result` is kept and replayed to a retry with the key. False
   * releases the key, so a retry (a corrected request) runs again.
   */
  keep: boolean;
}

/** The result to answer with, and whether it is a replay of an earlier one. */
export interface IdempotentOutcome {
  replayed: boolean;
  result: string;
}

/** Thrown inside the unit of work to roll back the writes of work that does not commit. */
class Discard {
  readonly work: IdempotentWork;
  constructor(work: IdempotentWork) {
    this.work = work;
  }
}

/**
 * Runs `work` at most once per (scope, operation, key). The key is claimed
 * first, visibly, so a concurrent retry is told `idempotency_in_flight`; then
 * the work's writes and its result commit in one unit of work, so no crash can
 * leave a write without its result or a result without its write. A claim
 * whose request died is taken over once its lease ends. A finished key replays
 * its result; a different request under a used key is `idempotency_key_reused`.
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
  const id = idempotencyId(request.scope, [request.operation], request.key);
  const owner = toHex(deps.random.bytes(16));
  const now = deps.clock.now();
  const ids = [
    ...(request.formerOperation === undefined ? [] : [request.formerOperation]),
    [request.operation],
  ];
  for (const parts of ids) {
    const found = await store.find(idempotencyId(request.scope, parts, request.key), now);
    // A key the caller holds replays, or is seen running, whatever the bound. A claim whose
    // request died is no one's: the key is claimed anew below.
    if (found !== null && (found.result !== null || found.leaseUntil.getTime() > now.getTime())) {
      return settled(found, request, now);
    }
  }
  const caller = sha256Hex(request.scope);
  await requireRoom(store, caller, now);
  const claim = await store.claim(
    {
      id,
      caller,
      fingerprint: request.fingerprint,
      owner,
      leaseUntil: new Date(now.getTime() + IDEMPOTENCY_LEASE_MS),
      expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
    },
    now,
  );
  if (!claim.claimed) return settled(claim.record, request, now);
  try {
    const done = await deps.repos.unitOfWork.run(async (repos) => {
      const result = await work(bind(repos));
      if (!result.commit) throw new Discard(result);
      // Kept or released in the same unit as the writes, and only while the claim is still ours.
      const held = result.keep
        ? await repos.idempotency.complete(id, owner, result.result)
        : await repos.idempotency.release(id, owner);
      if (!held) {
        // The lease ran out and a retry took the key over: this run's writes must not land.
        throw new MarketplaceError("idempotency_in_flight", undefined, { retryAfter: 1 });
      }
      return result;
    });
    return { replayed: false, result: done.result };
  } catch (error) {
    if (!(error instanceof Discard)) {
      await store.release(id, owner);
      throw error;
    }
    // Nothing was written: keeping the result needs no transaction with it.
    if (error.work.keep) await store.complete(id, owner, error.work.result);
    else await store.release(id, owner);
    return { replayed: false, result: error.work.result };
  }
}

/**
 * Refuses a new key to a caller at its bound (IDEMPOTENCY_MAX_KEYS_PER_CALLER,
 * IDEMPOTENCY_MAX_BYTES_PER_CALLER) until its oldest key lapses. Read before
 * the claim, not with it: requests of one caller that run at once may pass
 * together, which overshoots the bound by at most their number.
 */
async function requireRoom(store: IdempotencyStore, caller: string, now: Date): Promise<void> {
  const usage = await store.usage(caller, now);
  if (usage.keys < IDEMPOTENCY_MAX_KEYS_PER_CALLER && usage.bytes < IDEMPOTENCY_MAX_BYTES_PER_CALLER) return;
  const lapse = usage.nextExpiry?.getTime() ?? now.getTime();
  const retryAfter = Math.max(1, Math.ceil((lapse - now.getTime()) / 1000));
  throw new MarketplaceError("idempotency_limit_reached", undefined, { retryAfter });
}

/** The stored id of a keyed request: a digest, so a key of any length fits one column. */
export function idempotencyId(scope: string, operation: readonly string[], key: string): string {
  return sha256Hex(JSON.stringify([scope, ...operation, key]));
}

/** A key someone else holds: its replay, or why the request cannot run now. */
function settled(record: IdempotencyRecord, request: IdempotentRequest, now: Date): IdempotentOutcome {
  if (record.fingerprint !== request.fingerprint) throw new MarketplaceError("idempotency_key_reused");
  if (record.result !== null) return { replayed: true, result: record.result };
  const wait = Math.max(1, Math.ceil((record.leaseUntil.getTime() - now.getTime()) / 1000));
  throw new MarketplaceError("idempotency_in_flight", undefined, { retryAfter: wait });
}

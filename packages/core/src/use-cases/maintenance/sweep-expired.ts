import type { Deps } from "../../deps.js";

/** Removes expired idempotency keys and browser sessions; run it on a timer. */
export async function sweepExpired(
  deps: Pick<Deps, "repos" | "clock">,
): Promise<{ idempotencyKeys: number; sessions: number }> {
  const now = deps.clock.now();
  const idempotencyKeys = await deps.repos.idempotency.deleteExpired(now);
  const sessions = await deps.repos.sessions.deleteExpired(now);
  return { idempotencyKeys, sessions };
}

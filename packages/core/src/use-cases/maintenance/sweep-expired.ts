import type { Deps } from "../../deps.js";
import { EVENT_RETENTION_MS } from "../../domain/event.js";
import { DELIVERY_RETENTION_MS } from "../../domain/webhook.js";

/** What one sweep removed, by table. */
export interface SweepReport {
  idempotencyKeys: number;
  sessions: number;
  events: number;
  deliveries: number;
  /** OAuth codes and grants past their expiry. */
  oauth: number;
}

/**
 * Removes expired idempotency keys and browser sessions, events past their 90 days and webhook
 * deliveries past their 30, and OAuth codes and grants past their expiry; run it on a timer.
 */
export async function sweepExpired(deps: Pick<Deps, "repos" | "clock">): Promise<SweepReport> {
  const now = deps.clock.now();
  const idempotencyKeys = await deps.repos.idempotency.deleteExpired(now);
  const sessions = await deps.repos.sessions.deleteExpired(now);
  // Events are kept 90 days (decisions.md 1.3.0); a poller away longer starts again from 0.
  const events = await deps.repos.events.sweep(new Date(now.getTime() - EVENT_RETENTION_MS));
  const deliveries = await deps.repos.webhookDeliveries.sweep(
    new Date(now.getTime() - DELIVERY_RETENTION_MS),
  );
  const oauth = await deps.repos.oauthGrants.deleteExpired(now);
  return { idempotencyKeys, sessions, events, deliveries, oauth };
}

import type { Deps } from "../../deps.js";
import type { MarketEvent } from "../../domain/event.js";
import type { MailKind } from "../../domain/mail-job.js";
import {
  conversationKey,
  MESSAGE_MAIL_INTERVAL_MS,
  SAVED_SEARCH_DIGEST_INTERVAL_MS,
  SAVED_SEARCH_DIGEST_REF,
  SAVED_SEARCH_MAIL_INTERVAL_MS,
} from "../../domain/notification.js";
import type { Repositories } from "../../ports/repositories.js";

/** The events that may ask for a notification mail. */
const NOTIFYING = ["message.received", "saved_search.matched"] as const;
/** Notifying events one unit of work takes on at most, and events of any type it looks through. */
const BATCH = 500;
const WINDOW = 5_000;
/** Units of work one call runs at most while the log holds more. */
const ROUNDS = 10;

/**
 * Turns new events into notification mail jobs, off the request path: the events were written with
 * the changes (the outbox), and a cursor over them moves in the same transaction as the jobs it
 * queues, so a crash loses none and queues none twice. A `message.received` queues one mail per
 * conversation at most every 15 minutes, a `saved_search.matched` one per saved search hourly or a
 * daily digest, for a receiver whose address is proven and who wants it. Events of other types are
 * skipped in storage (EventRepository.scanAfter), and a call goes on while more is left, up to
 * ROUNDS units of work, so a burst of matches does not hold a message's mail back for minutes.
 * Without a URL signer no notification can carry its unsubscribe link, so none is queued.
 */
export async function queueNotifications(
  deps: Pick<Deps, "repos" | "clock" | "ids" | "urlSigner">,
): Promise<number> {
  let queued = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const done = await queueRound(deps);
    queued += done.queued;
    if (!done.more) break;
  }
  return queued;
}

async function queueRound(
  deps: Pick<Deps, "repos" | "clock" | "ids" | "urlSigner">,
): Promise<{ queued: number; more: boolean }> {
  return deps.repos.unitOfWork.run(async (repos) => {
    const cursor = await repos.notifications.takeCursor();
    if (cursor === null) return { queued: 0, more: false };
    const scan = await repos.events.scanAfter(cursor, { types: NOTIFYING, window: WINDOW, limit: BATCH });
    if (scan.through === null) return { queued: 0, more: false };
    let queued = 0;
    if (deps.urlSigner) {
      for (const event of scan.events) {
        const job = await notificationOf(repos, event);
        if (!job) continue;
        const now = deps.clock.now();
        const stored = await repos.mailQueue.enqueueCoalesced(
          { id: deps.ids.newId(now), userId: event.userId, kind: job.kind, ref: job.ref, createdAt: now },
          job.intervalMs,
        );
        if (stored) queued++;
      }
    }
    await repos.notifications.advanceCursor(scan.through);
    return { queued, more: scan.more };
  });
}

/**
 * The mail an event asks for, if its receiver's address is proven and their settings want it: a
 * `message.received` one per conversation every 15 minutes; a `saved_search.matched` one per saved
 * search every hour ("instant") or one digest of all of them a day ("daily").
 */
async function notificationOf(
  repos: Repositories,
  event: MarketEvent,
): Promise<{ kind: MailKind; ref: string; intervalMs: number } | null> {
  if (event.type !== "message.received" && event.type !== "saved_search.matched") return null;
  const receiver = await repos.users.findById(event.userId);
  if (!receiver || receiver.emailVerifiedAt === null) return null;
  const settings = await repos.notifications.get(receiver.id);
  if (event.type === "message.received") {
    const { listing_id: listingId, sender_id: senderId } = event.data;
    if (!listingId || !senderId || settings.messageMail !== "instant") return null;
    const ref = conversationKey(listingId, senderId);
    return { kind: "message_received", ref, intervalMs: MESSAGE_MAIL_INTERVAL_MS };
  }
  const savedSearchId = event.data.saved_search_id;
  if (!savedSearchId || settings.savedSearchMail === "off") return null;
  return settings.savedSearchMail === "instant"
    ? { kind: "saved_search_matched", ref: savedSearchId, intervalMs: SAVED_SEARCH_MAIL_INTERVAL_MS }
    : {
        kind: "saved_search_matched",
        ref: SAVED_SEARCH_DIGEST_REF,
        intervalMs: SAVED_SEARCH_DIGEST_INTERVAL_MS,
      };
}

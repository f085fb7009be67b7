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

/** How many events one round reads. */
const BATCH = 500;

/**
 * Turns new events into notification mail jobs, off the request path: the events were written with
 * the changes (the outbox), and a cursor over them moves in the same transaction as the jobs it
 * queues, so a crash loses none and queues none twice. A `message.received` queues one mail per
 * conversation at most every 15 minutes, a `saved_search.matched` one per saved search hourly or a
 * daily digest, for a receiver whose address is proven and who wants it.
 * Without a URL signer no notification can carry its unsubscribe link, so none is queued.
 */
export async function queueNotifications(
  deps: Pick<Deps, "repos" | "clock" | "ids" | "urlSigner">,
): Promise<number> {
  return deps.repos.unitOfWork.run(async (repos) => {
    const cursor = await repos.notifications.takeCursor();
    if (cursor === null) return 0;
    const events = await repos.events.listAfter(cursor, BATCH);
    const last = events.at(-1);
    if (!last) return 0;
    let queued = 0;
    if (deps.urlSigner) {
      for (const event of events) {
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
    await repos.notifications.advanceCursor(last.seq);
    return queued;
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

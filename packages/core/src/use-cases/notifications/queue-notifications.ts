import type { Deps } from "../../deps.js";
import { conversationKey, MESSAGE_MAIL_INTERVAL_MS } from "../../domain/notification.js";

/** How many events one round reads. */
const BATCH = 500;

/**
 * Turns new events into notification mail jobs, off the request path: the events were written with
 * the changes (the outbox), and a cursor over them moves in the same transaction as the jobs it
 * queues, so a crash loses none and queues none twice. A `message.received` queues one mail per
 * conversation at most every 15 minutes, for a receiver whose address is proven and who wants it.
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
        if (event.type !== "message.received") continue;
        const { listing_id: listingId, sender_id: senderId } = event.data;
        if (!listingId || !senderId) continue;
        const receiver = await repos.users.findById(event.userId);
        if (!receiver || receiver.emailVerifiedAt === null) continue;
        if ((await repos.notifications.get(receiver.id)).messageMail !== "instant") continue;
        const now = deps.clock.now();
        const stored = await repos.mailQueue.enqueueCoalesced(
          {
            id: deps.ids.newId(now),
            userId: receiver.id,
            kind: "message_received",
            ref: conversationKey(listingId, senderId),
            createdAt: now,
          },
          MESSAGE_MAIL_INTERVAL_MS,
        );
        if (stored) queued++;
      }
    }
    await repos.notifications.advanceCursor(last.seq);
    return queued;
  });
}

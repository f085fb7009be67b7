import { createHash } from "node:crypto";
import { isMarketplaceError, type Marketplace, type Message, type UserActor } from "@psm/core";
import { type Context, Hono } from "hono";
import type { WebEnv } from "../env.js";
import { fieldErrorsOf } from "../forms.js";
import { formGuard, readLimit, signedIn, userOf } from "../guard.js";
import { displayNames, UNKNOWN_MEMBER } from "../names.js";
import { once } from "../once.js";
import type { WebConfig } from "../options.js";
import { type Conversation, InboxPage, type InboxView } from "../pages/inbox.js";
import { render } from "../render.js";

// The newest messages each way; older ones are beyond what a page shows.
const MESSAGES_EACH_WAY = 100;

/** The page anchor of the conversation about `listingId` with `otherId`. */
export function conversationKey(listingId: string, otherId: string): string {
  return `c-${createHash("sha256").update(`${listingId}:${otherId}`).digest("hex").slice(0, 16)}`;
}

/**
 * Received and sent messages grouped by (listing, correspondent): each group
 * oldest first, the groups by their latest message, newest first.
 */
async function conversations(m: Marketplace, actor: UserActor): Promise<Omit<InboxView, "failed">> {
  const [received, sent] = await Promise.all([
    m.messages.list(actor, { type: "received", limit: MESSAGES_EACH_WAY }),
    m.messages.list(actor, { type: "sent", limit: MESSAGES_EACH_WAY }),
  ]);
  const groups = new Map<string, { listingId: string; otherId: string; messages: Message[] }>();
  for (const message of [...received.items, ...sent.items]) {
    const otherId = message.senderId === actor.user.id ? message.receiverId : message.senderId;
    const key = conversationKey(message.listingId, otherId);
    const group = groups.get(key) ?? { listingId: message.listingId, otherId, messages: [] };
    group.messages.push(message);
    groups.set(key, group);
  }
  const listingIds = new Set([...groups.values()].map((g) => g.listingId));
  const titles = new Map<string, string | null>();
  await Promise.all(
    [...listingIds].map(async (id) => {
      try {
        titles.set(id, (await m.listings.get({ id })).title);
      } catch (error) {
        if (!isMarketplaceError(error, "listing_not_found")) throw error;
        titles.set(id, null);
      }
    }),
  );
  const names = await displayNames(m, actor, new Set([...groups.values()].map((g) => g.otherId)));
  // Ids are time-ordered (UUIDv7), so they sort messages as their times do.
  const list: Conversation[] = [...groups].map(([key, group]) => ({
    key,
    listingId: group.listingId,
    listingTitle: titles.get(group.listingId) ?? null,
    otherId: group.otherId,
    otherName: names.get(group.otherId) ?? UNKNOWN_MEMBER,
    messages: group.messages.sort((a, b) => (a.id < b.id ? -1 : 1)),
  }));
  const latest = (c: Conversation) => c.messages.at(-1)?.id ?? "";
  list.sort((a, b) => (latest(a) < latest(b) ? 1 : -1));
  return { conversations: list, truncated: received.nextCursor !== null || sent.nextCursor !== null };
}

/** `/inbox`: conversations and replies in place. */
export function inboxRoutes(config: WebConfig): Hono<WebEnv> {
  const m = config.marketplace;
  const app = new Hono<WebEnv>();
  app.use("/inbox", signedIn(config));
  app.use("/inbox/*", signedIn(config));

  const inboxPage = async (c: Context<WebEnv>, failed?: InboxView["failed"]) => {
    const view: InboxView = { ...(await conversations(m, userOf(c))), failed };
    return render(c, config, (ctx) => <InboxPage ctx={ctx} view={view} />, failed ? 400 : 200);
  };

  app.get("/inbox", readLimit(config), (c) => inboxPage(c));

  app.post("/inbox/reply", formGuard(config, "write"), async (c) => {
    const actor = userOf(c);
    const form = c.get("form");
    const listingId = form.listing_id ?? "";
    const receiverId = form.receiver_id ?? "";
    const content = form.content ?? "";
    const key = conversationKey(listingId, receiverId);
    return once<string>(c, config, actor, {
      route: "reply",
      work: async (bound) => {
        try {
          await bound.messages.send(actor, { listingId, receiverId, content });
        } catch (error) {
          const problem = fieldErrorsOf(error, { content: { field: "content", label: "Reply" } });
          if (problem?.content) return { refused: problem.content };
          throw error;
        }
        return { redirect: `/inbox#${key}`, flash: { tone: "ok", text: "Message sent." } };
      },
      refused: (error) => inboxPage(c, { key, draft: content, error }),
    });
  });

  return app;
}

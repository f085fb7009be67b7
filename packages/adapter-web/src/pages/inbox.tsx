import type { Message } from "@psm/core";
import type { FC } from "hono/jsx";
import { ErrorSummary } from "../components/field.js";
import { Layout } from "../components/layout.js";
import { MessageForm } from "../components/message-form.js";
import { formatDateTime } from "../format.js";
import type { PageContext } from "../render.js";

/** The messages about one listing between the user and one correspondent, oldest first. */
export interface Conversation {
  /** Unique on the page: the anchor after a reply. */
  key: string;
  listingId: string;
  /** Null when the listing was deleted (its messages are kept). */
  listingTitle: string | null;
  otherId: string;
  otherName: string;
  messages: Message[];
}

/** The inbox: conversations, newest activity first, and a refused reply to show again. */
export interface InboxView {
  conversations: Conversation[];
  /** Whether older messages exist beyond what is shown. */
  truncated: boolean;
  /** The reply that was refused, by conversation key. */
  failed?: { key: string; draft: string; error: string } | undefined;
}

/** `/inbox`: received and sent messages grouped by listing and correspondent, each with a reply form. */
export const InboxPage: FC<{ ctx: PageContext; view: InboxView }> = ({ ctx, view }) => {
  const me = ctx.user?.id;
  const failed = view.failed;
  return (
    <Layout ctx={ctx} title="Inbox">
      {failed ? (
        <ErrorSummary errors={{ content: failed.error }} ids={{ content: `reply-${failed.key}` }} />
      ) : null}
      <h1>Inbox</h1>
      {view.conversations.length === 0 ? (
        <p class="empty">
          No messages yet. Messages about your listings, and the ones you send from a listing page, appear
          here.
        </p>
      ) : null}
      {view.conversations.map((conversation) => {
        const titleId = `conversation-${conversation.key}`;
        const replyId = `reply-${conversation.key}`;
        const refused = failed?.key === conversation.key ? failed : undefined;
        return (
          <section class="conversation" id={conversation.key} aria-labelledby={titleId}>
            <h2 id={titleId} class="conversation-title">
              {conversation.listingTitle === null ? (
                <span>A deleted listing</span>
              ) : (
                <a href={`/listings/${conversation.listingId}`}>{conversation.listingTitle}</a>
              )}
              <span class="with"> with {conversation.otherName}</span>
            </h2>
            <ol class="messages">
              {conversation.messages.map((message) => {
                const mine = message.senderId === me;
                return (
                  <li class={mine ? "message message-mine" : "message"}>
                    <p class="message-meta">
                      <strong>{mine ? "You" : conversation.otherName}</strong>
                      <span>{formatDateTime(message.createdAt)}</span>
                      {message.isAgent ? <span class="badge badge-agent">Sent by an agent</span> : null}
                    </p>
                    <p class="message-body">{message.content}</p>
                  </li>
                );
              })}
            </ol>
            <MessageForm
              ctx={ctx}
              action="/inbox/reply"
              class="reply-form"
              id={replyId}
              label={`Reply to ${conversation.otherName}`}
              rows={3}
              draft={refused?.draft}
              error={refused?.error}
            >
              <input type="hidden" name="listing_id" value={conversation.listingId} />
              <input type="hidden" name="receiver_id" value={conversation.otherId} />
            </MessageForm>
          </section>
        );
      })}
      {view.truncated ? <p class="hint">Only your most recent messages are shown.</p> : null}
    </Layout>
  );
};

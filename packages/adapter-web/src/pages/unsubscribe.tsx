import type { UnsubscribeKind } from "@psm/core";
import type { FC } from "hono/jsx";
import { NarrowPage } from "../components/narrow-page.js";
import type { PageContext } from "../render.js";

/** What each kind of notification mail is, in a reader's words. */
export const UNSUBSCRIBE_SUBJECTS: Readonly<Record<UnsubscribeKind, string>> = {
  message_mail: "mails about new messages",
  saved_search_mail: "mails about new listings matching your saved searches",
};

/**
 * `/unsubscribe`: the one button that turns the link's kind of mail off. A mail scanner fetching
 * the link changes nothing; a mail client's one-click POST (RFC 8058) needs no page at all.
 */
export const UnsubscribePage: FC<{ ctx: PageContext; token: string; kind: UnsubscribeKind }> = ({
  ctx,
  token,
  kind,
}) => (
  <NarrowPage ctx={ctx} title="Unsubscribe" script={false}>
    <p class="lead">Stop {UNSUBSCRIBE_SUBJECTS[kind]}?</p>
    <p>You can turn them on again in your account's notification settings.</p>
    <form method="post" action="/unsubscribe" class="stack">
      <input type="hidden" name="token" value={token} />
      <button type="submit" class="button">
        Unsubscribe
      </button>
    </form>
  </NarrowPage>
);

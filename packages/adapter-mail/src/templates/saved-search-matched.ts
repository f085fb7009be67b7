import type { SavedSearchMatchedMail } from "@psm/core";
import type { Block, MailContent } from "../content.js";
import { greeting, paragraph } from "./blocks.js";

/**
 * New listings matching the reader's saved searches, one saved search's or (the digest) all of
 * them, each listing a link to its page. Search names and listing titles were written by users:
 * they pass as text and labels, which the HTML part escapes.
 */
export function savedSearchMatchedTemplate(mail: SavedSearchMatchedMail): MailContent {
  const count = mail.searches.reduce((sum, search) => sum + search.listings.length, 0) + mail.more;
  const only = mail.searches.length === 1 ? mail.searches[0] : undefined;
  const subject =
    mail.digest || !only
      ? `${count} new ${count === 1 ? "listing matches" : "listings match"} your saved searches`
      : `${count} new ${count === 1 ? "listing matches" : "listings match"} “${only.name}”`;
  const listed: Block[] = mail.searches.flatMap((search) => [
    paragraph(`${search.name}:`),
    ...search.listings.map((listing): Block => ({ kind: "link", href: listing.url, label: listing.title })),
  ]);
  return {
    subject,
    blocks: [
      greeting(mail.displayName),
      paragraph(
        mail.digest ? "Today's new listings for your saved searches:" : "New listings for your saved search:",
      ),
      ...listed,
      ...(mail.more > 0 ? [paragraph(`And ${mail.more} more.`)] : []),
      { kind: "link", href: mail.manageUrl, label: "Manage your saved searches" },
      paragraph(
        mail.digest
          ? "You get at most one such digest a day. To stop mails about saved searches, follow the link below (no sign-in needed)."
          : "You get at most one such mail per saved search every hour. To stop mails about saved searches, follow the link below (no sign-in needed).",
      ),
      { kind: "link", href: mail.unsubscribeUrl, label: "Stop mails about saved searches" },
    ],
  };
}

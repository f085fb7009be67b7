import { effectiveStatus, type Listing } from "@psm/core";
import type { FC } from "hono/jsx";
import { ErrorSummary } from "../components/field.js";
import { Layout } from "../components/layout.js";
import { MessageForm } from "../components/message-form.js";
import { categoryLabel, formatDate, formatPrice, setCondition } from "../format.js";
import type { PageContext } from "../render.js";

/** What the listing page shows besides the listing: its author's name and the message form's state. */
export interface ListingView {
  listing: Listing;
  author: string;
  now: Date;
  /** The message as typed, when it was refused. */
  draft?: string;
  error?: string | undefined;
}

const STATUS_NOTE = {
  paused: "The author has paused this listing: it does not appear in search.",
  expired: "This listing has expired: it no longer appears in search.",
} as const;

/** `/listings/:id`: the whole listing, and a way to message its author. */
export const ListingPage: FC<{ ctx: PageContext; view: ListingView }> = ({ ctx, view }) => {
  const { listing } = view;
  const status = effectiveStatus(listing, view.now);
  const own = ctx.user?.id === listing.userId;
  const errors: Record<string, string> = view.error ? { content: view.error } : {};
  const condition = setCondition(listing);
  return (
    <Layout ctx={ctx} title={listing.title}>
      <article class="listing">
        <p class="breadcrumb">
          <a href="/">Browse</a> <span aria-hidden="true">/</span>{" "}
          <a href={`/?category=${listing.category}`}>{categoryLabel(listing.category)}</a>
        </p>
        <ErrorSummary errors={errors} />
        <h1>{listing.title}</h1>
        <p class="meta">
          <span class="tag">{categoryLabel(listing.category)}</span>
          <span class="price">{formatPrice(listing, ctx.currency)}</span>
          <span>by {view.author}</span>
          <span>
            {listing.views} {listing.views === 1 ? "view" : "views"}
          </span>
          <span>posted {formatDate(listing.createdAt)}</span>
        </p>
        {status !== "active" ? <p class="notice notice-info">{STATUS_NOTE[status]}</p> : null}
        <div class="listing-body">
          <div class="description">{listing.description}</div>
          <dl class="facts">
            {condition !== null ? (
              <>
                <dt>Condition</dt>
                <dd>{condition}</dd>
              </>
            ) : null}
            {listing.contactEmail ? (
              <>
                <dt>Contact email</dt>
                <dd>
                  <a href={`mailto:${listing.contactEmail}`}>{listing.contactEmail}</a>
                </dd>
              </>
            ) : null}
            {listing.expiresAt ? (
              <>
                <dt>Available until</dt>
                <dd>{formatDate(listing.expiresAt)}</dd>
              </>
            ) : null}
            {listing.images.length > 0 ? (
              <>
                <dt>Images</dt>
                <dd>
                  <ul class="plain-list">
                    {listing.images.map((url, i) => (
                      <li>
                        <a href={url} rel="nofollow noopener noreferrer">
                          Image {i + 1} (external link)
                        </a>
                      </li>
                    ))}
                  </ul>
                </dd>
              </>
            ) : null}
          </dl>
        </div>
        <section class="panel" aria-labelledby="contact-title">
          <h2 id="contact-title">Message the author</h2>
          {own ? (
            <p>
              This is your listing. <a href={`/my/listings/${listing.id}/edit`}>Edit it</a> or read messages
              about it in your <a href="/inbox">inbox</a>.
            </p>
          ) : ctx.user ? (
            <MessageForm
              ctx={ctx}
              action={`/listings/${listing.id}/messages`}
              label="Message"
              hint={`Introduce yourself and your project; ${view.author} replies in your inbox.`}
              rows={5}
              draft={view.draft}
              error={view.error}
            />
          ) : (
            <p>
              <a class="button" href={`/login?next=${encodeURIComponent(`/listings/${listing.id}`)}`}>
                Log in to message the author
              </a>{" "}
              or <a href="/signup">create an account</a>.
            </p>
          )}
        </section>
      </article>
    </Layout>
  );
};

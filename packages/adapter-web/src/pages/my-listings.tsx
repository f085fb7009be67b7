import { effectiveStatus, type Listing, type ListingLimit } from "@psm/core";
import type { FC } from "hono/jsx";
import { Layout } from "../components/layout.js";
import { NextPage } from "../components/next-page.js";
import { DeleteLink, RowButton, RowLink } from "../components/row-actions.js";
import { categoryLabel, formatPrice } from "../format.js";
import type { PageContext } from "../render.js";

/** The author's listings, every status, with their slots. */
export interface MyListingsView {
  listings: Listing[];
  limit: ListingLimit;
  now: Date;
  /** The query string of the next page, or null. */
  next: string | null;
}

const STATUS_LABEL = { active: "Active", paused: "Paused", expired: "Expired" } as const;

/** `/my/listings`: each listing with its views, and edit, pause or resume, delete. */
export const MyListingsPage: FC<{ ctx: PageContext; view: MyListingsView }> = ({ ctx, view }) => (
  <Layout ctx={ctx} title="My listings">
    <div class="page-head">
      <h1>My listings</h1>
      <a class="button" href="/post">
        Post a listing
      </a>
    </div>
    <p class={view.limit.canPost ? "slots" : "slots slots-full"}>
      You are using {view.limit.activeListingsCount} of {view.limit.maxSlots} listings.
      {view.limit.canPost ? "" : " Pause or delete one to post another."}
    </p>
    {view.listings.length === 0 ? (
      <p class="empty">
        You have no listings yet. <a href="/post">Post your first listing</a>.
      </p>
    ) : (
      <ul class="rows">
        {view.listings.map((listing) => {
          const status = effectiveStatus(listing, view.now);
          return (
            <li class="row">
              <div class="row-main">
                <h2 class="row-title">
                  <a href={`/listings/${listing.id}`}>{listing.title}</a>
                </h2>
                <p class="meta">
                  <span class={`badge badge-${status}`}>{STATUS_LABEL[status]}</span>
                  <span>{categoryLabel(listing.category)}</span>
                  <span>{formatPrice(listing, ctx.currency)}</span>
                  <span>
                    {listing.views} {listing.views === 1 ? "view" : "views"}
                  </span>
                </p>
              </div>
              <div class="row-actions">
                <RowLink
                  href={`/my/listings/${listing.id}/edit`}
                  label="Edit"
                  subject={listing.title}
                  tone="secondary"
                />
                {listing.status === "active" || listing.status === "paused" ? (
                  <RowButton
                    ctx={ctx}
                    action={`/my/listings/${listing.id}/status`}
                    label={listing.status === "active" ? "Pause" : "Resume"}
                    subject={listing.title}
                    tone="secondary"
                  >
                    <input
                      type="hidden"
                      name="status"
                      value={listing.status === "active" ? "paused" : "active"}
                    />
                  </RowButton>
                ) : null}
                <DeleteLink href={`/my/listings/${listing.id}/delete`} subject={listing.title} />
              </div>
            </li>
          );
        })}
      </ul>
    )}
    <NextPage path="/my/listings" query={view.next} />
  </Layout>
);

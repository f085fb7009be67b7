import type { Listing } from "@psm/core";
import type { FC } from "hono/jsx";
import { categoryLabel, formatPrice } from "../format.js";

const EXCERPT = 180;

/** A search result: title (the link), category, price, author, and the start of the description. */
export const ListingCard: FC<{ listing: Listing; author: string; currency: string }> = ({
  listing,
  author,
  currency,
}) => {
  const text = listing.description.replace(/\s+/g, " ").trim();
  return (
    <li class="card">
      <h3 class="card-title">
        <a href={`/listings/${listing.id}`}>{listing.title}</a>
      </h3>
      <p class="meta">
        <span class="tag">{categoryLabel(listing.category)}</span>
        <span class="price">{formatPrice(listing, currency)}</span>
        <span>by {author}</span>
      </p>
      <p class="excerpt">{text.length > EXCERPT ? `${text.slice(0, EXCERPT).trimEnd()}…` : text}</p>
    </li>
  );
};

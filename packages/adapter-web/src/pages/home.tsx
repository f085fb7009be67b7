import type { Listing } from "@psm/core";
import type { FC } from "hono/jsx";
import { Input, Select } from "../components/field.js";
import { Layout } from "../components/layout.js";
import { ListingCard } from "../components/listing-card.js";
import { NextPage } from "../components/next-page.js";
import { CATEGORY_OPTIONS } from "../format.js";
import { UNKNOWN_MEMBER } from "../names.js";
import type { PageContext } from "../render.js";

/** What the browse page shows: the query as typed, one page of results and how to get the next. */
export interface BrowseView {
  q: string;
  category: string;
  /** 1 for the first page; the Next link counts on. */
  page: number;
  listings: Listing[];
  authors: Map<string, string>;
  /** The query string of the next page, or null on the last. */
  next: string | null;
  /** A problem with the query itself (too long, malformed cursor). */
  error?: string | undefined;
}

function titleOf(view: BrowseView): string {
  const parts: string[] = [];
  if (view.q !== "") parts.push(`“${view.q}”`);
  if (view.category !== "") {
    const label = CATEGORY_OPTIONS.find((o) => o.value === view.category)?.label ?? view.category;
    parts.push(`in ${label}`);
  }
  const base = parts.length > 0 ? `Results for ${parts.join(" ")}` : "Browse professional services";
  return view.page > 1 ? `${base}, page ${view.page}` : base;
}

/** `/`: the search form (GET, so results can be bookmarked) and the listings it finds. */
export const HomePage: FC<{ ctx: PageContext; view: BrowseView }> = ({ ctx, view }) => {
  const searched = view.q !== "" || view.category !== "";
  return (
    <Layout ctx={ctx} title={titleOf(view)}>
      <section class="hero" aria-labelledby="page-title">
        <h1 id="page-title">{searched ? "Search results" : "Find the right professional"}</h1>
        <p class="lead">
          Consulting, software, design, legal and more: browse services from independent professionals and
          firms, and message them directly.
        </p>
        <search>
          <form method="get" action="/" class="search-form">
            <Input name="q" label="Search" type="search" value={view.q} maxlength={200} error={view.error} />
            <Select
              name="category"
              label="Category"
              value={view.category}
              options={[{ value: "", label: "All categories" }, ...CATEGORY_OPTIONS]}
            />
            <button type="submit" class="button">
              Search
            </button>
          </form>
        </search>
      </section>
      <section aria-labelledby="results-title">
        <h2 id="results-title">
          {searched ? "Matching listings" : "Latest listings"}
          {view.page > 1 ? `, page ${view.page}` : ""}
        </h2>
        {view.listings.length === 0 ? (
          <p class="empty">
            {view.next !== null
              ? // A search may stop short to bound its work (core's ListingSearchResult): older listings remain.
                "None of the listings searched so far match. Older listings may."
              : searched
                ? "No listings match. Try other words or all categories."
                : "No listings yet. Be the first to post one."}
          </p>
        ) : (
          <ul class="cards">
            {view.listings.map((listing) => (
              <ListingCard listing={listing} author={view.authors.get(listing.userId) ?? UNKNOWN_MEMBER} />
            ))}
          </ul>
        )}
        <NextPage
          path="/"
          query={view.next}
          label={view.listings.length === 0 ? "Search older listings" : "Next page"}
        />
      </section>
    </Layout>
  );
};

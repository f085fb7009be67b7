import type { CategoryCounts, Listing } from "@psm/core";
import type { FC } from "hono/jsx";
import { Input, Select } from "../components/field.js";
import { Layout } from "../components/layout.js";
import { ListingCard } from "../components/listing-card.js";
import { NextPage } from "../components/next-page.js";
import { SaveSearch } from "../components/save-search.js";
import { CATEGORY_OPTIONS } from "../format.js";
import { UNKNOWN_MEMBER } from "../names.js";
import type { PageContext } from "../render.js";

/** The search as the URL carries it (the API's names), each "" when not given: a shareable, savable link. */
export interface BrowseCriteria {
  q: string;
  category: string;
  min_price: string;
  max_price: string;
  sort: string;
}

const CRITERIA: readonly (keyof BrowseCriteria)[] = ["q", "category", "min_price", "max_price", "sort"];

/** The criteria of a request's query string. */
export function browseCriteria(read: (name: string) => string | undefined): BrowseCriteria {
  const criteria = { q: "", category: "", min_price: "", max_price: "", sort: "" };
  for (const name of CRITERIA) criteria[name] = (read(name) ?? "").trim();
  return criteria;
}

/** The form field a core `invalid_input` field names (the search box for anything else, a cursor included). */
export function browseField(field: string | undefined): keyof BrowseCriteria {
  const fields: Record<string, keyof BrowseCriteria> = {
    category: "category",
    minPrice: "min_price",
    maxPrice: "max_price",
    sort: "sort",
  };
  return fields[field ?? ""] ?? "q";
}

/** What the browse page shows: the query as typed, one page of results and how to get the next. */
export interface BrowseView extends BrowseCriteria {
  /** 1 for the first page; the Next link counts on. */
  page: number;
  listings: Listing[];
  authors: Map<string, string>;
  /** Matches per category for the rest of the search (core's facets). */
  facets?: CategoryCounts | undefined;
  /** The query string of the next page, or null on the last. */
  next: string | null;
  /** A problem with the query itself (too long, malformed cursor), and the field it is about. */
  error?: { field: keyof BrowseCriteria; message: string } | undefined;
}

const SORTS = [
  { value: "", label: "Best match (newest without words)" },
  { value: "newest", label: "Newest first" },
  { value: "price_asc", label: "Price, lowest first" },
  { value: "price_desc", label: "Price, highest first" },
];

function titleOf(view: BrowseView): string {
  const parts: string[] = [];
  if (view.q !== "") parts.push(`“${view.q}”`);
  if (view.category !== "") {
    const label = CATEGORY_OPTIONS.find((o) => o.value === view.category)?.label ?? view.category;
    parts.push(`in ${label}`);
  }
  if (view.min_price !== "" || view.max_price !== "") parts.push("within a price range");
  const base = parts.length > 0 ? `Results for ${parts.join(" ")}` : "Browse professional services";
  return view.page > 1 ? `${base}, page ${view.page}` : base;
}

/** A category's label with its count of matches ("1000+" when the count was cut at the cap). */
function categoryOptions(facets: CategoryCounts | undefined) {
  const counted = (value: string, label: string) => {
    if (!facets) return label;
    const n = facets.counts[value as keyof CategoryCounts["counts"]] ?? 0;
    return `${label} (${facets.capped && n > 0 ? `${n}+` : n})`;
  };
  return [
    { value: "", label: "All categories" },
    ...CATEGORY_OPTIONS.map((o) => ({ ...o, label: counted(o.value, o.label) })),
  ];
}

/** Links that each drop one filter of the search, for an empty result. */
function loosenings(view: BrowseView): { href: string; label: string }[] {
  const without = (...names: (keyof BrowseCriteria)[]) => {
    const query = new URLSearchParams();
    for (const name of CRITERIA) if (!names.includes(name) && view[name] !== "") query.set(name, view[name]);
    return query.size === 0 ? "/" : `/?${query}`;
  };
  const links: { href: string; label: string }[] = [];
  if (view.category !== "") links.push({ href: without("category"), label: "Search all categories" });
  if (view.min_price !== "" || view.max_price !== "") {
    links.push({ href: without("min_price", "max_price"), label: "Remove the price range" });
  }
  if (view.q !== "") links.push({ href: without("q"), label: `Remove the words “${view.q}”` });
  return links;
}

/** The browse page's address for this search, to come back to after logging in. */
function backOf(view: BrowseView): string {
  const query = new URLSearchParams();
  for (const name of CRITERIA) if (view[name] !== "") query.set(name, view[name]);
  return query.size === 0 ? "/" : `/?${query}`;
}

/** `/`: the search form (GET, so results can be bookmarked and shared) and the listings it finds. */
export const HomePage: FC<{ ctx: PageContext; view: BrowseView }> = ({ ctx, view }) => {
  const searched = view.q !== "" || view.category !== "" || view.min_price !== "" || view.max_price !== "";
  const errorOf = (field: keyof BrowseCriteria) =>
    view.error?.field === field ? view.error.message : undefined;
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
            <Input
              name="q"
              label="Search"
              type="search"
              value={view.q}
              maxlength={200}
              hint="Words in the title or description; consulting also finds consultant."
              error={errorOf("q")}
            />
            <Select
              name="category"
              label="Category"
              value={view.category}
              options={categoryOptions(view.facets)}
              error={errorOf("category")}
            />
            <Input
              name="min_price"
              label="Lowest price"
              value={view.min_price}
              inputmode="decimal"
              optional
              error={errorOf("min_price")}
            />
            <Input
              name="max_price"
              label="Highest price"
              value={view.max_price}
              inputmode="decimal"
              optional
              error={errorOf("max_price")}
            />
            <Select name="sort" label="Sort" value={view.sort} options={SORTS} error={errorOf("sort")} />
            <button type="submit" class="button">
              Search
            </button>
          </form>
        </search>
        {searched && view.error === undefined ? (
          <SaveSearch ctx={ctx} search={view} back={backOf(view)} />
        ) : null}
      </section>
      <section aria-labelledby="results-title">
        <h2 id="results-title">
          {searched ? "Matching listings" : "Latest listings"}
          {view.page > 1 ? `, page ${view.page}` : ""}
        </h2>
        {view.listings.length === 0 ? (
          <div class="empty">
            <p>
              {view.next !== null
                ? // A search may stop short to bound its work (core's ListingSearchResult): more listings remain.
                  "None of the listings searched so far match. Others may."
                : searched
                  ? "No listings match."
                  : "No listings yet. Be the first to post one."}
            </p>
            {view.next === null && loosenings(view).length > 0 ? (
              <ul class="loosen">
                {loosenings(view).map((link) => (
                  <li>
                    <a href={link.href}>{link.label}</a>
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
        ) : (
          <ul class="cards">
            {view.listings.map((listing) => (
              <ListingCard
                listing={listing}
                author={view.authors.get(listing.userId) ?? UNKNOWN_MEMBER}
                currency={ctx.currency}
              />
            ))}
          </ul>
        )}
        <NextPage
          path="/"
          query={view.next}
          label={view.listings.length === 0 ? "Search further" : "Next page"}
        />
      </section>
    </Layout>
  );
};

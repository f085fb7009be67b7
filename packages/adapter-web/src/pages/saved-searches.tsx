import type { SavedSearch } from "@psm/core";
import type { FC } from "hono/jsx";
import { NarrowPage } from "../components/narrow-page.js";
import { PostForm } from "../components/post-form.js";
import { CATEGORY_OPTIONS } from "../format.js";
import type { PageContext } from "../render.js";

/** The browse page's link that runs a saved search again. */
function browseLink(search: SavedSearch): string {
  const query = new URLSearchParams();
  if (search.q !== null) query.set("q", search.q);
  if (search.category !== null) query.set("category", search.category);
  if (search.minPrice !== null) query.set("min_price", String(search.minPrice));
  if (search.maxPrice !== null) query.set("max_price", String(search.maxPrice));
  return query.size === 0 ? "/" : `/?${query}`;
}

/** What a saved search looks for, in words. */
function describe(search: SavedSearch): string {
  const parts: string[] = [];
  if (search.q !== null) parts.push(`words “${search.q}”`);
  if (search.search !== null) parts.push(`title containing “${search.search}”`);
  if (search.category !== null) {
    parts.push(`in ${CATEGORY_OPTIONS.find((o) => o.value === search.category)?.label ?? search.category}`);
  }
  if (search.minPrice !== null) parts.push(`from ${search.minPrice}`);
  if (search.maxPrice !== null) parts.push(`up to ${search.maxPrice}`);
  return parts.join(", ");
}

/** `/account/saved-searches`: the user's saved searches, each with a link to run it and a Delete button. */
export const SavedSearchesPage: FC<{ ctx: PageContext; searches: SavedSearch[] }> = ({ ctx, searches }) => (
  <NarrowPage ctx={ctx} title="Saved searches" errors={{}}>
    <p class="breadcrumb">
      <a href="/account">Account</a>
    </p>
    <p>
      We tell you of new listings that match a saved search: in your event feed, to your webhooks, and by mail
      as your <a href="/account/notifications">notification settings</a> say. Save a search from the{" "}
      <a href="/">browse page</a>.
    </p>
    {searches.length === 0 ? (
      <p>You have no saved searches yet.</p>
    ) : (
      <ul class="saved-searches">
        {searches.map((search) => (
          <li>
            <a href={browseLink(search)}>{search.name}</a>
            <span class="hint"> {describe(search)}</span>
            <PostForm ctx={ctx} action={`/account/saved-searches/${search.id}/delete`} class="inline-form">
              <button
                type="submit"
                class="button button-danger"
                aria-label={`Delete saved search ${search.name}`}
              >
                Delete
              </button>
            </PostForm>
          </li>
        ))}
      </ul>
    )}
  </NarrowPage>
);

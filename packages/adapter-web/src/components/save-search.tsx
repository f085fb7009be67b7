import type { FC } from "hono/jsx";
import type { PageContext } from "../render.js";
import { PostForm } from "./post-form.js";

/** The criteria of the browse page a saved search keeps (the API's names). */
export interface SavableSearch {
  q: string;
  category: string;
  min_price: string;
  max_price: string;
}

/**
 * "Save this search": a form carrying the search as hidden fields (it works without JavaScript and
 * carries its CSRF token); a visitor who is not signed in gets a link to log in and come back here.
 */
export const SaveSearch: FC<{ ctx: PageContext; search: SavableSearch; back: string }> = ({
  ctx,
  search,
  back,
}) =>
  ctx.user ? (
    <PostForm ctx={ctx} action="/account/saved-searches" class="save-search">
      {(["q", "category", "min_price", "max_price"] as const).map((name) => (
        <input type="hidden" name={name} value={search[name]} />
      ))}
      <button type="submit" class="button button-secondary">
        Save this search
      </button>
      <span class="hint"> We tell you of new listings that match it.</span>
    </PostForm>
  ) : (
    <p class="save-search">
      <a href={`/login?next=${encodeURIComponent(back)}`}>Log in to save this search</a> and be told of new
      listings that match it.
    </p>
  );

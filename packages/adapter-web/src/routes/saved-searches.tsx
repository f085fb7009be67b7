import { isMarketplaceError, MAX_SAVED_SEARCHES_PER_USER } from "@psm/core";
import type { Hono } from "hono";
import { setFlash } from "../cookies.js";
import type { WebEnv } from "../env.js";
import { formGuard, readLimit, userOf } from "../guard.js";
import type { WebConfig } from "../options.js";
import { SavedSearchesPage } from "../pages/saved-searches.js";
import { render } from "../render.js";

/** A form's field, or undefined when left empty (the API's "not given"). */
const given = (value: string | undefined) => (value === undefined || value.trim() === "" ? undefined : value);

/** `/account/saved-searches` (list, save from the browse page, delete); behind accountRoutes' signedIn. */
export function savedSearchRoutes(app: Hono<WebEnv>, config: WebConfig): void {
  const m = config.marketplace;
  const LIST = "/account/saved-searches";

  app.get(LIST, readLimit(config), async (c) => {
    // The limit is small: every saved search fits on one page.
    const searches = (await m.savedSearches.list(userOf(c), { limit: MAX_SAVED_SEARCHES_PER_USER })).items;
    return render(c, config, (ctx) => <SavedSearchesPage ctx={ctx} searches={searches} />);
  });

  app.post(LIST, formGuard(config, "write"), async (c) => {
    const form = c.get("form");
    try {
      await m.savedSearches.create(userOf(c), {
        q: given(form.q),
        category: given(form.category) as "all" | undefined,
        minPrice: given(form.min_price),
        maxPrice: given(form.max_price),
      });
    } catch (error) {
      if (
        !isMarketplaceError(error, "invalid_input") &&
        !isMarketplaceError(error, "saved_search_limit_reached")
      ) {
        throw error;
      }
      const text = isMarketplaceError(error, "invalid_input")
        ? `This search could not be saved: ${error.message}`
        : `You already keep ${MAX_SAVED_SEARCHES_PER_USER} saved searches: delete one to save another.`;
      setFlash(c, config, { tone: "error", text });
      return c.redirect(LIST, 303);
    }
    setFlash(c, config, {
      tone: "ok",
      text: "Search saved. We will tell you of new listings that match it.",
    });
    return c.redirect(LIST, 303);
  });

  app.post(`${LIST}/:id/delete`, formGuard(config, "write"), async (c) => {
    try {
      await m.savedSearches.delete(userOf(c), { id: c.req.param("id") });
    } catch (error) {
      if (!isMarketplaceError(error, "saved_search_not_found")) throw error;
    }
    setFlash(c, config, { tone: "ok", text: "Saved search deleted." });
    return c.redirect(LIST, 303);
  });
}

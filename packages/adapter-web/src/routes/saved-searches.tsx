import { isMarketplaceError, MAX_SAVED_SEARCHES_PER_USER } from "@psm/core";
import type { Hono } from "hono";
import { setFlash } from "../cookies.js";
import type { Flash, WebEnv } from "../env.js";
import { formGuard, readLimit, userOf } from "../guard.js";
import { once } from "../once.js";
import type { WebConfig } from "../options.js";
import { SavedSearchesPage } from "../pages/saved-searches.js";
import { render } from "../render.js";

const SAVED: Flash = { tone: "ok", text: "Search saved. We will tell you of new listings that match it." };

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

  // Once per form (a double submit saves one search); a refusal is told on the list, where the
  // limit and the saved searches are in view, and not kept, so a corrected form runs.
  app.post(LIST, formGuard(config, "write"), async (c) => {
    const actor = userOf(c);
    const form = c.get("form");
    return once<string>(c, config, actor, {
      route: "create_saved_search",
      work: async (bound) => {
        try {
          await bound.savedSearches.create(actor, {
            q: given(form.q),
            category: given(form.category) as "all" | undefined,
            minPrice: given(form.min_price),
            maxPrice: given(form.max_price),
          });
        } catch (error) {
          if (isMarketplaceError(error, "invalid_input")) {
            return { refused: `This search could not be saved: ${error.message}` };
          }
          if (isMarketplaceError(error, "saved_search_limit_reached")) {
            return {
              refused: `You already keep ${MAX_SAVED_SEARCHES_PER_USER} saved searches: delete one to save another.`,
            };
          }
          throw error;
        }
        return { redirect: LIST, flash: SAVED };
      },
      refused: async (text) => {
        setFlash(c, config, { tone: "error", text });
        return c.redirect(LIST, 303);
      },
    });
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

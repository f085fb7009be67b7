import { type Actor, isCategory, isMarketplaceError, type ListingSort } from "@psm/core";
import { Hono } from "hono";
import type { WebEnv } from "../env.js";
import { fieldErrorsOf } from "../forms.js";
import { formGuard, readLimit, signedIn, userOf } from "../guard.js";
import { displayNames, UNKNOWN_MEMBER } from "../names.js";
import { once } from "../once.js";
import type { WebConfig } from "../options.js";
import { type PublicPage, publicPage } from "../page-cache.js";
import { type BrowseView, browseCriteria, browseField, HomePage } from "../pages/home.js";
import { ListingPage, type ListingView } from "../pages/listing.js";
import { render } from "../render.js";
import { conversationKey } from "./inbox.js";

const PAGE_SIZE = 20;

/** The query string of a page, without empty parameters. */
function queryString(params: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value) query.set(name, value);
  return query.toString();
}

/**
 * Where `/?search=…` belongs: `/?q=…` with the rest of the query kept. `search` is the API's
 * name for the same title search (GET /api/listings), so people and links that guess it from the
 * API land on results; a redirect rather than a second name keeps one URL per result page for
 * bookmarks, caches and the search box (which is filled from `q`). When both are given, `q` is
 * what the box sent last, so it wins.
 */
function canonicalSearch(url: string): string {
  const given = new URL(url).searchParams;
  const q = given.get("q") || given.get("search") || "";
  const query = new URLSearchParams(q === "" ? {} : { q });
  for (const [name, value] of given) if (name !== "q" && name !== "search") query.append(name, value);
  return query.size === 0 ? "/" : `/?${query}`;
}

/** The browse page for the query `param` reads: results, or the form with its error (400). */
async function browsePage(
  config: WebConfig,
  actor: Actor,
  param: (name: string) => string | undefined,
): Promise<PublicPage> {
  const m = config.marketplace;
  const criteria = browseCriteria(param);
  const page = Math.max(1, Number.parseInt(param("page") ?? "1", 10) || 1);
  const view: BrowseView = { ...criteria, page, listings: [], authors: new Map(), next: null };
  const refused = (): PublicPage => ({
    view: (ctx) => <HomePage ctx={ctx} view={view} />,
    status: 400,
    listings: [],
  });
  const chosen =
    criteria.category === "" ? undefined : isCategory(criteria.category) ? criteria.category : null;
  if (chosen === null) {
    view.error = { field: "category", message: "Choose a category from the list" };
    return refused();
  }
  try {
    const result = await m.listings.search(actor, {
      q: criteria.q === "" ? undefined : criteria.q,
      category: chosen,
      minPrice: criteria.min_price === "" ? undefined : criteria.min_price,
      maxPrice: criteria.max_price === "" ? undefined : criteria.max_price,
      sort: criteria.sort === "" ? undefined : (criteria.sort as ListingSort),
      facets: "category",
      cursor: param("cursor"),
      limit: PAGE_SIZE,
    });
    view.listings = result.items;
    view.facets = result.facets?.category;
    view.authors = await displayNames(m, actor, new Set(result.items.map((l) => l.userId)));
    if (result.nextCursor !== null) {
      view.next = queryString({ ...criteria, cursor: result.nextCursor, page: String(page + 1) });
    }
  } catch (error) {
    if (!isMarketplaceError(error, "invalid_input")) throw error;
    // Shown beside its field, so without the field's name (core's, camelCase) in front.
    const named = error.field !== undefined && error.message.startsWith(`${error.field}: `);
    const reason = named ? error.message.slice((error.field?.length ?? 0) + 2) : error.message;
    view.error = { field: browseField(error.field), message: `Search could not run: ${reason}` };
    return refused();
  }
  return { view: (ctx) => <HomePage ctx={ctx} view={view} />, listings: view.listings };
}

/** `/` (search and browse) and `/listings/:id` (one listing, and messaging its author). */
export function browseRoutes(config: WebConfig): Hono<WebEnv> {
  const m = config.marketplace;
  const app = new Hono<WebEnv>();

  app.get("/", readLimit(config), async (c) => {
    if (c.req.query("search") !== undefined) return c.redirect(canonicalSearch(c.req.url), 301);
    return publicPage(c, config, () => browsePage(config, c.get("actor"), (name) => c.req.query(name)));
  });

  app.get("/listings/:id", readLimit(config), async (c) => {
    const actor = c.get("actor");
    const id = c.req.param("id");
    // One view per page view by someone other than the author; a HEAD shows nothing.
    const counts = c.req.method === "GET";
    let author: string | undefined;
    const page = async (): Promise<PublicPage> => {
      const listing = await m.listings.get({ id });
      author = listing.userId;
      // The view this page counts (below, once it is shown) is in the count it shows.
      if (counts && !(actor.kind === "user" && actor.user.id === listing.userId)) listing.views += 1;
      const names = await displayNames(m, actor, [listing.userId]);
      const view: ListingView = {
        listing,
        author: names.get(listing.userId) ?? UNKNOWN_MEMBER,
        now: m.now(),
      };
      return { view: (ctx) => <ListingPage ctx={ctx} view={view} />, listings: [listing] };
    };
    // Kept for visitors who are not signed in with the count it showed: a kept page shows a count up
    // to the cache's maximum age old, as a page of listings does.
    const answer = await publicPage(c, config, page, { agedViews: true });
    const own = actor.kind === "user" && actor.user.id === author;
    if (counts && answer.status === 200 && !own)
      await config.views.count(() => m.listings.recordView({ id }));
    return answer;
  });

  app.post("/listings/:id/messages", signedIn(config), formGuard(config, "write"), async (c) => {
    const actor = userOf(c);
    const listing = await m.listings.get({ id: c.req.param("id") });
    const content = c.get("form").content ?? "";
    return once<string>(c, config, actor, {
      route: "send_message",
      work: async (bound) => {
        try {
          await bound.messages.send(actor, { listingId: listing.id, receiverId: listing.userId, content });
        } catch (error) {
          const problem = fieldErrorsOf(error, { content: { field: "content", label: "Message" } });
          if (problem?.content) return { refused: problem.content };
          throw error;
        }
        return {
          redirect: `/inbox#${conversationKey(listing.id, listing.userId)}`,
          flash: { tone: "ok", text: "Message sent. Replies appear in your inbox." },
        };
      },
      refused: async (error) => {
        const names = await displayNames(m, actor, [listing.userId]);
        const view: ListingView = {
          listing,
          author: names.get(listing.userId) ?? UNKNOWN_MEMBER,
          now: m.now(),
          draft: content,
          error,
        };
        return render(c, config, (ctx) => <ListingPage ctx={ctx} view={view} />, 400);
      },
    });
  });

  return app;
}

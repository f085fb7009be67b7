import { isSelfOrAdmin, type Listing, MarketplaceError } from "@psm/core";
import { type Context, Hono } from "hono";
import { setFlash } from "../cookies.js";
import type { WebEnv } from "../env.js";
import { type FormRefusal, type FormStatus, formRefusal } from "../forms.js";
import { formGuard, readLimit, signedIn, userOf } from "../guard.js";
import { draftOf, draftOfListing, LISTING_FIELDS, patchOf } from "../listing-draft.js";
import type { WebConfig } from "../options.js";
import { ConfirmPage } from "../pages/confirm.js";
import { EditListingPage, type EditView } from "../pages/edit-listing.js";
import { MyListingsPage } from "../pages/my-listings.js";
import { LISTING_DELETE, redirectAfter, type WriteOutcome } from "../redirect-after.js";
import { render } from "../render.js";

const PAGE_SIZE = 50;
const FULL = "All your listing slots are in use: pause or delete another listing first.";
const STATUS_CHANGE: WriteOutcome<Listing> = {
  done: (listing) => ({
    tone: "ok",
    text:
      listing.status === "active" ? `“${listing.title}” is active again.` : `“${listing.title}” is paused.`,
  }),
  refusals: { listing_limit_reached: { tone: "error", text: FULL } },
};
// An edit that makes an expired listing active again (a later day) needs a free slot.
const FULL_ON_EDIT: FormRefusal = { errors: { expires_at: `Available until: ${FULL}` }, status: 400 };

/** `/my/listings`: the author's listings; edit, pause or resume, and delete with a confirmation step. */
export function myListingRoutes(config: WebConfig): Hono<WebEnv> {
  const m = config.marketplace;
  const app = new Hono<WebEnv>();
  app.use("/my/*", signedIn(config));

  /** The listing of the path, if the visitor may change it (core decides again on every write). */
  const editable = async (c: Context<WebEnv>) => {
    const listing = await m.listings.get({ id: c.req.param("id") ?? "" });
    if (!isSelfOrAdmin(userOf(c), listing.userId)) {
      throw new MarketplaceError("forbidden", "Only the author of this listing can change it.");
    }
    return listing;
  };
  const editPage = (c: Context<WebEnv>, view: EditView, status: FormStatus = 200) =>
    render(c, config, (ctx) => <EditListingPage ctx={ctx} view={view} />, status);

  app.get("/my/listings", readLimit(config), async (c) => {
    const actor = userOf(c);
    const [page, limit] = await Promise.all([
      m.listings.search(actor, {
        userId: actor.user.id,
        status: "all",
        limit: PAGE_SIZE,
        cursor: c.req.query("cursor"),
      }),
      m.profiles.getLimit({ userId: actor.user.id }),
    ]);
    const next =
      page.nextCursor === null ? null : new URLSearchParams({ cursor: page.nextCursor }).toString();
    const view = { listings: page.items, limit, now: m.now(), next };
    return render(c, config, (ctx) => <MyListingsPage ctx={ctx} view={view} />);
  });

  app.get("/my/listings/:id/edit", readLimit(config), async (c) => {
    const listing = await editable(c);
    return editPage(c, { id: listing.id, title: listing.title, draft: draftOfListing(listing), errors: {} });
  });

  app.post("/my/listings/:id/edit", formGuard(config, "write"), async (c) => {
    const listing = await editable(c);
    const draft = draftOf(c.get("form"));
    const patch = patchOf(draft);
    const view: EditView = { id: listing.id, title: listing.title, draft, errors: {} };
    try {
      await m.listings.update(userOf(c), { id: listing.id, ...patch });
    } catch (error) {
      const refusal = formRefusal(error, LISTING_FIELDS, { listing_limit_reached: FULL_ON_EDIT });
      if (!refusal) throw error;
      return editPage(c, { ...view, errors: refusal.errors }, refusal.status);
    }
    setFlash(c, config, { tone: "ok", text: `Saved your changes to “${draft.title.trim()}”.` });
    return c.redirect("/my/listings", 303);
  });

  app.post("/my/listings/:id/status", formGuard(config, "write"), (c) => {
    const status = c.get("form").status === "active" ? "active" : "paused";
    const change = () => m.listings.update(userOf(c), { id: c.req.param("id"), status });
    return redirectAfter(c, config, "/my/listings", change, STATUS_CHANGE);
  });

  app.get("/my/listings/:id/delete", readLimit(config), async (c) => {
    const listing = await editable(c);
    const confirmation = {
      question: `Delete “${listing.title}”?`,
      detail: "The listing disappears for good. Messages about it stay in the inboxes.",
      action: `/my/listings/${listing.id}/delete`,
      confirm: "Delete listing",
      cancel: "/my/listings",
    };
    return render(c, config, (ctx) => <ConfirmPage ctx={ctx} confirmation={confirmation} />);
  });

  app.post("/my/listings/:id/delete", formGuard(config, "write"), (c) => {
    const remove = () => m.listings.delete(userOf(c), { id: c.req.param("id") });
    return redirectAfter(c, config, "/my/listings", remove, LISTING_DELETE);
  });

  return app;
}

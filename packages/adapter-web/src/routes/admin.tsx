import { MarketplaceError } from "@psm/core";
import { type Context, Hono } from "hono";
import type { WebEnv } from "../env.js";
import { formGuard, readLimit, signedIn, userOf } from "../guard.js";
import { displayNames } from "../names.js";
import type { WebConfig } from "../options.js";
import { AdminListingsPage } from "../pages/admin-listings.js";
import { AdminUsersPage } from "../pages/admin-users.js";
import { type Confirmation, ConfirmPage } from "../pages/confirm.js";
import { LISTING_DELETE, redirectAfter, type WriteOutcome } from "../redirect-after.js";
import { render } from "../render.js";

const PAGE_SIZE = 50;
const USER_DELETE: WriteOutcome<unknown> = {
  done: { tone: "ok", text: "The user was deleted." },
  refusals: {
    user_not_found: { tone: "ok", text: "The user was already deleted." },
    cannot_delete_admin: { tone: "error", text: "Admins cannot be deleted." },
  },
};

/** The next page's query string, or null on the last page. */
function nextOf(cursor: string | null): string | null {
  return cursor === null ? null : new URLSearchParams({ cursor }).toString();
}

/**
 * `/admin/users` and `/admin/listings`, each with a delete step. Core's admin
 * use cases decide who is an admin; the confirmation pages, which change
 * nothing, only check the flag to spare others a pointless question.
 */
export function adminRoutes(config: WebConfig): Hono<WebEnv> {
  const m = config.marketplace;
  const app = new Hono<WebEnv>();
  app.use("/admin/*", signedIn(config));

  const confirm = (c: Context<WebEnv>, confirmation: Confirmation) => {
    if (!userOf(c).user.isAdmin) throw new MarketplaceError("admin_required");
    return render(c, config, (ctx) => <ConfirmPage ctx={ctx} confirmation={confirmation} />);
  };

  app.get("/admin/users", readLimit(config), async (c) => {
    const page = await m.admin.listUsers(userOf(c), { limit: PAGE_SIZE, cursor: c.req.query("cursor") });
    const view = { users: page.items, next: nextOf(page.nextCursor) };
    return render(c, config, (ctx) => <AdminUsersPage ctx={ctx} view={view} />);
  });

  app.get("/admin/users/:id/delete", readLimit(config), (c) =>
    confirm(c, {
      question: "Delete this user?",
      detail: "The account, its listings and its API keys are deleted for good.",
      action: `/admin/users/${encodeURIComponent(c.req.param("id"))}/delete`,
      confirm: "Delete user",
      cancel: "/admin/users",
    }),
  );

  app.post("/admin/users/:id/delete", formGuard(config, "write"), (c) => {
    const remove = () => m.admin.deleteUser(userOf(c), { userId: c.req.param("id") });
    return redirectAfter(c, config, "/admin/users", remove, USER_DELETE);
  });

  app.get("/admin/listings", readLimit(config), async (c) => {
    const actor = userOf(c);
    const page = await m.admin.listPosts(actor, { limit: PAGE_SIZE, cursor: c.req.query("cursor") });
    const authors = await displayNames(m, actor, new Set(page.items.map((l) => l.userId)));
    const view = { listings: page.items, authors, now: m.now(), next: nextOf(page.nextCursor) };
    return render(c, config, (ctx) => <AdminListingsPage ctx={ctx} view={view} />);
  });

  app.get("/admin/listings/:id/delete", readLimit(config), async (c) => {
    const listing = await m.listings.get({ id: c.req.param("id") });
    return confirm(c, {
      question: `Delete “${listing.title}”?`,
      detail: "The listing disappears for good. Messages about it stay in the inboxes.",
      action: `/admin/listings/${listing.id}/delete`,
      confirm: "Delete listing",
      cancel: "/admin/listings",
    });
  });

  app.post("/admin/listings/:id/delete", formGuard(config, "write"), (c) => {
    const remove = () => m.admin.deletePost(userOf(c), { postId: c.req.param("id") });
    return redirectAfter(c, config, "/admin/listings", remove, LISTING_DELETE);
  });

  return app;
}

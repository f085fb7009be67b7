import type { FC, PropsWithChildren } from "hono/jsx";
import { assetUrl } from "../assets.js";
import type { PageContext } from "../render.js";
import { PostForm } from "./post-form.js";

/** The product's name, in titles and the header. */
export const SITE_NAME = "psm marketplace";

interface NavItem {
  href: string;
  label: string;
  /** Paths under href that also make it the current item. */
  prefix?: string;
}

function navItems(ctx: PageContext): NavItem[] {
  const items: NavItem[] = [
    { href: "/", label: "Browse" },
    { href: "/post", label: "Post a listing" },
  ];
  if (!ctx.user) return items;
  items.push(
    { href: "/my/listings", label: "My listings", prefix: "/my/" },
    { href: "/inbox", label: "Inbox" },
    { href: "/account", label: "Account", prefix: "/account/" },
  );
  if (ctx.user.isAdmin) items.push({ href: "/admin/users", label: "Admin", prefix: "/admin/" });
  return items;
}

function isCurrent(item: NavItem, path: string): boolean {
  return path === item.href || (item.prefix !== undefined && path.startsWith(item.prefix));
}

/**
 * Every page: a skip link, the header with the main navigation, one `main`
 * (which holds the page's only h1), the notice of the last write, a footer.
 * `script={false}` for pages that hold a mailed token: they work without it, and no script
 * on them could ever read the token off.
 */
export const Layout: FC<PropsWithChildren<{ ctx: PageContext; title: string; script?: boolean }>> = ({
  ctx,
  title,
  script = true,
  children,
}) => (
  <html lang="en">
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <title>{`${title} · ${SITE_NAME}`}</title>
      <link rel="icon" href={assetUrl("icon")} type="image/svg+xml" />
      <link rel="stylesheet" href={assetUrl("css")} />
      {script && <script src={assetUrl("js")} defer />}
    </head>
    <body>
      <a class="skip-link" href="#main">
        Skip to main content
      </a>
      <header class="site-header">
        <div class="wrap header-inner">
          <a class="brand" href="/">
            <span class="brand-mark" aria-hidden="true">
              p
            </span>
            {SITE_NAME}
          </a>
          <nav aria-label="Main">
            <ul class="nav">
              {navItems(ctx).map((item) => (
                <li>
                  <a href={item.href} aria-current={isCurrent(item, ctx.path) ? "page" : undefined}>
                    {item.label}
                  </a>
                </li>
              ))}
              {ctx.user ? (
                <li>
                  <PostForm ctx={ctx} action="/logout" class="inline-form">
                    <button type="submit" class="link-button">
                      Log out
                    </button>
                  </PostForm>
                </li>
              ) : (
                <>
                  <li>
                    <a href="/login" aria-current={ctx.path === "/login" ? "page" : undefined}>
                      Log in
                    </a>
                  </li>
                  <li>
                    <a
                      class="nav-cta"
                      href="/signup"
                      aria-current={ctx.path === "/signup" ? "page" : undefined}
                    >
                      Sign up
                    </a>
                  </li>
                </>
              )}
            </ul>
          </nav>
        </div>
      </header>
      <main id="main" tabindex={-1}>
        <div class="wrap">
          {ctx.flash ? (
            <p
              class={`notice notice-${ctx.flash.tone}`}
              role={ctx.flash.tone === "error" ? "alert" : "status"}
            >
              {ctx.flash.text}
            </p>
          ) : null}
          {children}
        </div>
      </main>
      <footer class="site-footer">
        <div class="wrap">
          <p>
            {SITE_NAME}: an open-source marketplace for professional services. Programs and agents use the{" "}
            <a href="/docs">JSON API</a>.
          </p>
        </div>
      </footer>
    </body>
  </html>
);

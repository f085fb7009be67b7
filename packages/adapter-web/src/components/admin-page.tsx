import type { FC, PropsWithChildren } from "hono/jsx";
import type { PageContext } from "../render.js";
import { Layout } from "./layout.js";
import { NextPage } from "./next-page.js";

type AdminSection = "users" | "listings";

/** The two admin pages, as tabs-like links. */
const AdminTabs: FC<{ current: AdminSection }> = ({ current }) => (
  <nav aria-label="Admin" class="tabs">
    <a href="/admin/users" aria-current={current === "users" ? "page" : undefined}>
      Users
    </a>
    <a href="/admin/listings" aria-current={current === "listings" ? "page" : undefined}>
      Listings
    </a>
  </nav>
);

/** An admin page: its heading, the tabs to the other one, one page of its list and the way on. */
export const AdminPage: FC<
  PropsWithChildren<{ ctx: PageContext; current: AdminSection; next: string | null }>
> = ({ ctx, current, next, children }) => (
  <Layout ctx={ctx} title={`Admin: ${current}`}>
    <h1>Admin: {current}</h1>
    <AdminTabs current={current} />
    {children}
    <NextPage path={`/admin/${current}`} query={next} />
  </Layout>
);

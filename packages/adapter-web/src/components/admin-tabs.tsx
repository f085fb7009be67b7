import type { FC } from "hono/jsx";

/** The two admin pages, as tabs-like links. */
export const AdminTabs: FC<{ current: "users" | "listings" }> = ({ current }) => (
  <nav aria-label="Admin" class="tabs">
    <a href="/admin/users" aria-current={current === "users" ? "page" : undefined}>
      Users
    </a>
    <a href="/admin/listings" aria-current={current === "listings" ? "page" : undefined}>
      Listings
    </a>
  </nav>
);

import type { FC } from "hono/jsx";

/** The "Next page" link under a list, when there is one (`query` is the next page's query string). */
export const NextPage: FC<{ path: string; query: string | null; label?: string }> = ({
  path,
  query,
  label = "Next page",
}) =>
  query === null ? null : (
    <nav aria-label="Pages" class="pager">
      <a class="button button-secondary" href={`${path}?${query}`} rel="next">
        {label}
      </a>
    </nav>
  );

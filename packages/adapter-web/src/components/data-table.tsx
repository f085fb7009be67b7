import type { FC, PropsWithChildren } from "hono/jsx";

/**
 * A table of records, one row each (the record's name in a row header), scrolling sideways on
 * narrow screens. The last column holds the row's actions, its header for screen readers only;
 * `actions={false}` leaves it out for a read-only table (an empty column is noise to a reader).
 * A read-only table has nothing to focus, so `label` names its box as a region a keyboard can
 * reach and scroll when it is wider than the screen. `stacked`: on a phone each row is shown as a
 * card instead, its cells one under the other, each named by its `data-label`, so that the row's
 * actions are on screen without scrolling sideways.
 */
export const DataTable: FC<
  PropsWithChildren<{ columns: readonly string[]; actions?: boolean; label?: string; stacked?: boolean }>
> = ({ columns, actions = true, label, stacked, children }) => {
  const table = (
    <table class={stacked ? "table-stacked" : undefined}>
      <thead>
        <tr>
          {columns.map((column) => (
            <th scope="col">{column}</th>
          ))}
          {actions ? (
            <th scope="col">
              <span class="visually-hidden">Actions</span>
            </th>
          ) : null}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
  if (label === undefined) return <div class="table-scroll">{table}</div>;
  return (
    <section class="table-scroll" aria-label={label} tabindex={0}>
      {table}
    </section>
  );
};

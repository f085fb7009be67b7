import type { FC, PropsWithChildren } from "hono/jsx";

/**
 * A table of records, one row each (the record's name in a row header), scrolling sideways on
 * narrow screens. The last column holds the row's actions; its header is for screen readers only.
 * `stacked`: on a phone each row is shown as a card instead, its cells one under the other, each
 * named by its `data-label`, so that the row's actions are on screen without scrolling sideways.
 */
export const DataTable: FC<PropsWithChildren<{ columns: readonly string[]; stacked?: boolean }>> = ({
  columns,
  stacked,
  children,
}) => (
  <div class="table-scroll">
    <table class={stacked ? "table-stacked" : undefined}>
      <thead>
        <tr>
          {columns.map((column) => (
            <th scope="col">{column}</th>
          ))}
          <th scope="col">
            <span class="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  </div>
);

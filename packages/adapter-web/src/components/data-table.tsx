import type { FC, PropsWithChildren } from "hono/jsx";

/**
 * A table of records, one row each (the record's name in a row header), scrolling sideways on
 * narrow screens. The last column holds the row's actions; its header is for screen readers only.
 */
export const DataTable: FC<PropsWithChildren<{ columns: readonly string[] }>> = ({ columns, children }) => (
  <div class="table-scroll">
    <table>
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

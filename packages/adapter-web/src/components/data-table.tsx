import type { FC, PropsWithChildren } from "hono/jsx";

/**
 * A table of records, one row each (the record's name in a row header), scrolling sideways on
 * narrow screens. The last column holds the row's actions, its header for screen readers only;
 * `actions={false}` leaves it out for a read-only table (an empty column is noise to a reader).
 * A read-only table has nothing to focus, so `label` names its box as a region a keyboard can
 * reach and scroll when it is wider than the screen.
 */
export const DataTable: FC<
  PropsWithChildren<{ columns: readonly string[]; actions?: boolean; label?: string }>
> = ({ columns, actions = true, label, children }) => {
  const table = (
    <table>
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

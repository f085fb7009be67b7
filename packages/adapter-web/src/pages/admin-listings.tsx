import { effectiveStatus, type Listing } from "@psm/core";
import type { FC } from "hono/jsx";
import { AdminPage } from "../components/admin-page.js";
import { DataTable } from "../components/data-table.js";
import { DeleteLink } from "../components/row-actions.js";
import { categoryLabel, formatDate } from "../format.js";
import { UNKNOWN_MEMBER } from "../names.js";
import type { PageContext } from "../render.js";

/** One page of listings of every author and status, newest first. */
export interface AdminListingsView {
  listings: Listing[];
  authors: Map<string, string>;
  now: Date;
  next: string | null;
}

/** `/admin/listings`: every listing, with a delete step. */
export const AdminListingsPage: FC<{ ctx: PageContext; view: AdminListingsView }> = ({ ctx, view }) => (
  <AdminPage ctx={ctx} current="listings" next={view.next}>
    <DataTable columns={["Title", "Author", "Category", "Status", "Posted"]}>
      {view.listings.map((listing) => (
        <tr>
          <th scope="row">
            <a href={`/listings/${listing.id}`}>{listing.title}</a>
          </th>
          <td>{view.authors.get(listing.userId) ?? UNKNOWN_MEMBER}</td>
          <td>{categoryLabel(listing.category)}</td>
          <td>{effectiveStatus(listing, view.now)}</td>
          <td>{formatDate(listing.createdAt)}</td>
          <td>
            <DeleteLink href={`/admin/listings/${listing.id}/delete`} subject={listing.title} />
          </td>
        </tr>
      ))}
    </DataTable>
  </AdminPage>
);

import { effectiveStatus, type Listing } from "@psm/core";
import type { FC } from "hono/jsx";
import { AdminTabs } from "../components/admin-tabs.js";
import { Layout } from "../components/layout.js";
import { NextPage } from "../components/next-page.js";
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
  <Layout ctx={ctx} title="Admin: listings">
    <h1>Admin: listings</h1>
    <AdminTabs current="listings" />
    <div class="table-scroll">
      <table>
        <thead>
          <tr>
            <th scope="col">Title</th>
            <th scope="col">Author</th>
            <th scope="col">Category</th>
            <th scope="col">Status</th>
            <th scope="col">Posted</th>
            <th scope="col">
              <span class="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
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
                <a class="button button-danger button-small" href={`/admin/listings/${listing.id}/delete`}>
                  Delete<span class="visually-hidden"> {listing.title}</span>
                </a>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
    <NextPage path="/admin/listings" query={view.next} />
  </Layout>
);

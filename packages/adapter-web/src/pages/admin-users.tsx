import type { UserView } from "@psm/core";
import type { FC } from "hono/jsx";
import { AdminTabs } from "../components/admin-tabs.js";
import { Layout } from "../components/layout.js";
import { NextPage } from "../components/next-page.js";
import { formatDate } from "../format.js";
import type { PageContext } from "../render.js";

/** One page of users, newest first. */
export interface AdminUsersView {
  users: UserView[];
  next: string | null;
}

/** `/admin/users`: every account, with a delete step for those that are not admins. */
export const AdminUsersPage: FC<{ ctx: PageContext; view: AdminUsersView }> = ({ ctx, view }) => (
  <Layout ctx={ctx} title="Admin: users">
    <h1>Admin: users</h1>
    <AdminTabs current="users" />
    <div class="table-scroll">
      <table>
        <thead>
          <tr>
            <th scope="col">Display name</th>
            <th scope="col">Email</th>
            <th scope="col">Type</th>
            <th scope="col">Active listings</th>
            <th scope="col">Joined</th>
            <th scope="col">
              <span class="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {view.users.map((user) => (
            <tr>
              <th scope="row">{user.displayName}</th>
              <td>{user.email}</td>
              <td>{user.isAdmin ? "Admin" : user.accountType === "business" ? "Business" : "Personal"}</td>
              <td>{user.activeListingsCount}</td>
              <td>{formatDate(user.createdAt)}</td>
              <td>
                {user.isAdmin ? null : (
                  <a class="button button-danger button-small" href={`/admin/users/${user.id}/delete`}>
                    Delete<span class="visually-hidden"> {user.displayName}</span>
                  </a>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
    <NextPage path="/admin/users" query={view.next} />
  </Layout>
);

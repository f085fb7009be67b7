import type { UserView } from "@psm/core";
import type { FC } from "hono/jsx";
import { AdminPage } from "../components/admin-page.js";
import { DataTable } from "../components/data-table.js";
import { DeleteLink } from "../components/row-actions.js";
import { formatDate } from "../format.js";
import type { PageContext } from "../render.js";

/** One page of users, newest first. */
export interface AdminUsersView {
  users: UserView[];
  next: string | null;
}

/** `/admin/users`: every account, with a delete step for those that are not admins. */
export const AdminUsersPage: FC<{ ctx: PageContext; view: AdminUsersView }> = ({ ctx, view }) => (
  <AdminPage ctx={ctx} current="users" next={view.next}>
    <DataTable columns={["Display name", "Email", "Type", "Active listings", "Joined"]}>
      {view.users.map((user) => (
        <tr>
          <th scope="row">{user.displayName}</th>
          <td>{user.email}</td>
          <td>{user.isAdmin ? "Admin" : user.accountType === "business" ? "Business" : "Personal"}</td>
          <td>{user.activeListingsCount}</td>
          <td>{formatDate(user.createdAt)}</td>
          <td>
            {user.isAdmin ? null : (
              <DeleteLink href={`/admin/users/${user.id}/delete`} subject={user.displayName} />
            )}
          </td>
        </tr>
      ))}
    </DataTable>
  </AdminPage>
);

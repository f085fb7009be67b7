import type { Deps } from "../deps.js";
import { toUserView, type User, type UserView } from "../domain/user.js";

/** Adds the derived active listing count to one user. */
export async function viewOf(deps: Pick<Deps, "repos" | "clock">, user: User): Promise<UserView> {
  return toUserView(user, await deps.repos.listings.countActiveByUser(user.id, deps.clock.now()));
}

/** The same for a page of users, with one count query. */
export async function viewsOf(deps: Pick<Deps, "repos" | "clock">, users: User[]): Promise<UserView[]> {
  const counts = await deps.repos.listings.countActiveByUsers(
    users.map((u) => u.id),
    deps.clock.now(),
  );
  return users.map((u) => toUserView(u, counts.get(u.id) ?? 0));
}

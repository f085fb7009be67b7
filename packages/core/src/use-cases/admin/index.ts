import type { Deps } from "../../deps.js";
import type { Actor } from "../../domain/actor.js";
import { deletePost, listPosts } from "./admin-posts.js";
import { deleteUser, ensureAdmin, listUsers } from "./admin-users.js";

/** The admin use cases bound to deps. */
export function bindAdmin(deps: Deps) {
  return {
    listPosts: (actor: Actor, query: unknown) => listPosts(deps, actor, query),
    deletePost: (actor: Actor, id: string) => deletePost(deps, actor, id),
    listUsers: (actor: Actor, query: unknown) => listUsers(deps, actor, query),
    deleteUser: (actor: Actor, id: string) => deleteUser(deps, actor, id),
    ensureAdmin: (input: { email: string; password: string }) => ensureAdmin(deps, input),
  };
}

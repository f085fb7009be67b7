import type { Deps } from "../../deps.js";
import type { Actor } from "../../domain/actor.js";
import type { UserView } from "../../domain/user.js";
import { viewOf } from "../user-view.js";

/** The calling user (JWT or API key), or null for an anonymous caller. */
export async function me(deps: Pick<Deps, "repos" | "clock">, actor: Actor): Promise<UserView | null> {
  return actor.kind === "user" ? viewOf(deps, actor.user) : null;
}

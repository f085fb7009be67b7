import type { Deps } from "../../deps.js";
import type { Actor } from "../../domain/actor.js";
import { listProfiles } from "./list-profiles.js";
import { checkAdmin, getListingLimit, postListingLimit } from "./listing-limit.js";
import { syncProfile } from "./sync-profile.js";

/** The profile use cases bound to deps. */
export function bindProfiles(deps: Deps) {
  return {
    list: (actor: Actor, query: unknown) => listProfiles(deps, actor, query),
    sync: (actor: Actor, input: unknown) => syncProfile(deps, actor, input),
    isAdmin: (query: unknown) => checkAdmin(deps, query),
    getLimit: (query: unknown) => getListingLimit(deps, query),
    postLimit: (actor: Actor, input: unknown) => postListingLimit(deps, actor, input),
  };
}

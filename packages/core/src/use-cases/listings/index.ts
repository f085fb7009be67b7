import type { Deps } from "../../deps.js";
import type { Actor } from "../../domain/actor.js";
import { createListing } from "./create-listing.js";
import { deleteListing } from "./delete-listing.js";
import { getListing, recordView } from "./get-listing.js";
import { searchListings } from "./search-listings.js";
import { updateListing } from "./update-listing.js";

/** The listing use cases bound to deps. */
export function bindListings(deps: Deps) {
  return {
    create: (actor: Actor, input: unknown) => createListing(deps, actor, input),
    search: (actor: Actor, query: unknown) => searchListings(deps, actor, query),
    get: (id: string) => getListing(deps, id),
    recordView: (id: string) => recordView(deps, id),
    update: (actor: Actor, id: string, input: unknown) => updateListing(deps, actor, id, input),
    delete: (actor: Actor, id: string) => deleteListing(deps, actor, id),
  };
}

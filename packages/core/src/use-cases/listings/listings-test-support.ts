/** Set-up shared by the listings use-case tests (listings-*.test.ts). */
import type { Actor } from "../../domain/actor.js";
import type { Listing } from "../../domain/listing.js";
import type { NewListingInput } from "../../schemas/new-listing.js";
import { type Marketplace as Market, setup } from "../../testing/use-case-kit.js";

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

const BASE: NewListingInput = {
  title: "Cloud migration",
  description: "We move your workloads.",
  category: "software-development",
};

/** Creates a listing through the use case: BASE with `fields` over it. */
export function create(
  market: Market,
  actor: Actor,
  fields: Partial<NewListingInput> = {},
): Promise<Listing> {
  return market.listings.create(actor, { ...BASE, ...fields });
}

/** The parties of an authorisation case: an author with one listing, another user, and an admin. */
export async function listingWithParties() {
  const kit = setup();
  const author = await kit.signUpAndLogIn("author@example.com");
  const other = await kit.signUpAndLogIn("other@example.com");
  const admin = (await kit.logInAdmin()).actor;
  const listing = await create(kit.market, author.actor);
  return { ...kit, author, other, admin, listing };
}

/** Set-up shared by the listings use-case tests (listings-*.test.ts). */
import type { Actor } from "../../domain/actor.js";
import type { Listing } from "../../domain/listing.js";
import type { NewListingInput } from "../../schemas/new-listing.js";
import type { Marketplace as Market } from "../../testing/use-case-kit.js";

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

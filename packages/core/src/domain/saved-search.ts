import type { Category } from "./category.js";
import { stemOf } from "./full-text.js";
import { lastWordOf } from "./last-word.js";
import type { Listing } from "./listing.js";
import {
  type ListingCriteria,
  type PreparedListing,
  prepareListing,
  rankListing,
  searchCriteria,
} from "./listing-criteria.js";
import { foldSearchText } from "./search-text.js";

/**
 * A search a user keeps, to be told of new listings that match it (decisions.md 1.3.0 "Saved
 * searches"): GET /api/listings's parameters, matched exactly as that search would match them.
 */
export interface SavedSearch {
  id: string;
  userId: string;
  name: string;
  q: string | null;
  search: string | null;
  category: Category | null;
  minPrice: number | null;
  maxPrice: number | null;
  createdAt: Date;
}

/** The most saved searches one user may keep. */
export const MAX_SAVED_SEARCHES_PER_USER = 20;

/** The criteria of a saved search: those of GET /api/listings with its parameters. */
export function savedSearchCriteria(search: SavedSearch): ListingCriteria {
  return searchCriteria(search);
}

/**
 * Whether `listing` is one GET /api/listings with the saved search's parameters would answer at
 * `now` (active and unexpired, and matching every criterion), and not the owner's own.
 */
export function matchesSavedSearch(
  listing: Listing,
  search: SavedSearch,
  now: Date,
  prepared: { listing?: PreparedListing; criteria?: ListingCriteria } = {},
): boolean {
  if (listing.userId === search.userId) return false;
  const criteria = prepared.criteria ?? savedSearchCriteria(search);
  return rankListing(listing, criteria, now, prepared.listing) !== null;
}

/**
 * Matching indexes every saved search under one key, and a new listing looks up only the keys it
 * could satisfy (listingMatchKeys), then checks each candidate with matchesSavedSearch: the cost
 * per listing follows its own words, not the number of saved searches. A key is something every
 * matching listing must hold, chosen by how few listings are likely to hold it:
 * - `w:` a stem that q requires whole (any word before the last), the longest;
 * - `t:` a trigram of the folded `search` text (the whole of it when shorter);
 * - `p:` the first characters that every stem q's last word matches begins with (LastWord
 *   `common`: the word may be one being typed);
 * - `c:` the category; `price` for a search by price alone.
 * Lengths count code points (inputs are well-formed), and stems are cut at STEM_KEY_LENGTH so a
 * hostile word cannot make a long key: equal stems cut equally. A prefix key is PREFIX_KEY_LENGTH
 * long (the stem whole when shorter), long enough to tell most words apart.
 */
export function savedSearchMatchKey(
  search: SavedSearch,
  criteria: ListingCriteria = savedSearchCriteria(search),
): string {
  const words = criteria.words ?? [];
  const whole = words
    .slice(0, -1)
    .map(stemOf)
    .sort((a, b) => b.length - a.length)[0];
  if (whole !== undefined) return `w:${cut(whole, STEM_KEY_LENGTH)}`;
  if (criteria.text !== undefined) return `t:${pickGram(Array.from(foldSearchText(criteria.text)))}`;
  const last = words.at(-1);
  if (last !== undefined) return `p:${cut(lastWordOf(last).common, PREFIX_KEY_LENGTH)}`;
  if (criteria.category !== undefined) return `c:${criteria.category}`;
  return PRICE_KEY;
}

/** Every key a saved search that `listing` matches may be indexed under (see savedSearchMatchKey). */
export function listingMatchKeys(
  listing: Listing,
  prepared: PreparedListing = prepareListing(listing),
): Set<string> {
  const keys = new Set<string>([`c:${listing.category}`]);
  if (listing.price !== null) keys.add(PRICE_KEY);
  // Prefixes and grams grown a code point at a time: a listing holds some 300 keys, and the
  // matcher works them out for every new listing.
  for (const stem of prepared.text.stems()) {
    keys.add(`w:${cut(stem, STEM_KEY_LENGTH)}`);
    let prefix = "";
    let n = 0;
    for (const point of stem) {
      if (n++ === PREFIX_KEY_LENGTH) break;
      prefix += point;
      keys.add(`p:${prefix}`);
    }
  }
  const title = Array.from(prepared.foldedTitle());
  for (let i = 0; i < title.length; i++) {
    let gram = "";
    for (let n = 0; n < GRAM && i + n < title.length; n++) {
      gram += title[i + n];
      keys.add(`t:${gram}`);
    }
  }
  return keys;
}

const PRICE_KEY = "price";
const GRAM = 3;
const PREFIX_KEY_LENGTH = 6;
const STEM_KEY_LENGTH = 64;

function cut(text: string, length: number): string {
  // No more UTF-16 units than `length`: no more code points either.
  return text.length <= length ? text : Array.from(text).slice(0, length).join("");
}

/** A trigram of the text, preferring one of letters and digits only (spaces and marks are common). */
function pickGram(points: readonly string[]): string {
  if (points.length <= GRAM) return points.join("");
  let first: string | undefined;
  for (let i = 0; i + GRAM <= points.length; i++) {
    const gram = points.slice(i, i + GRAM).join("");
    first ??= gram;
    if (/^[\p{L}\p{N}]+$/u.test(gram)) return gram;
  }
  return first ?? points.join("");
}

/** A name for a saved search its owner did not name: its criteria, briefly. */
export function defaultSavedSearchName(
  search: Omit<SavedSearch, "id" | "userId" | "name" | "createdAt">,
): string {
  const parts: string[] = [];
  if (search.q !== null) parts.push(search.q.trim());
  if (search.search !== null) parts.push(`title “${search.search.trim()}”`);
  if (search.category !== null) parts.push(search.category);
  if (search.minPrice !== null && search.maxPrice !== null)
    parts.push(`${search.minPrice}–${search.maxPrice}`);
  else if (search.minPrice !== null) parts.push(`from ${search.minPrice}`);
  else if (search.maxPrice !== null) parts.push(`up to ${search.maxPrice}`);
  return cut(parts.join(", "), SAVED_SEARCH_NAME_MAX_LENGTH);
}

/** The longest name of a saved search. */
export const SAVED_SEARCH_NAME_MAX_LENGTH = 100;

/** The endpoints of `pnpm bench:http` and the fixtures they need on a seeded server. */

import { CATEGORY_VALUES } from "@psm/core";
import { api, type BenchUser, makeUser, newListing, text } from "./api.js";
import { DISTINCT_QUERIES, distinctPaths, rotation } from "./distinct-queries.js";
import { COMMON_TERM, PAGE_CATEGORY, WORDS } from "./listing-data.js";
import type { Target } from "./load.js";

/** What the endpoints need beyond the seed: users, a key, a JWT, messages to list. */
export interface Fixtures {
  owner: BenchUser;
  /** Logs in: a user with few listings, as most are (the owner gains thousands in the one-author create row). */
  peer: BenchUser;
  /** A seeded listing whose views the view endpoint increments. */
  viewId: string;
  /** Seeded ids that point reads rotate over. */
  sampleIds: string[];
  /** Authors whose keys the many-author create row takes in turn, one per connection. */
  authors: BenchUser[];
}

/** As many authors as the bench has connections: each connection's creates rotate over all of them. */
const AUTHORS = 32;

/** Row names, shared by the table and the targets. */
export const ENDPOINT = {
  page: "GET /api/listings",
  pageUncached: "GET /api/listings (API key: never from the answer cache)",
  search: `GET /api/listings?search=${COMMON_TERM}`,
  category: `GET /api/listings?category=${PAGE_CATEGORY}`,
  byId: "GET /api/listings/{id}",
  view: "POST /api/listings/{id}/view",
  create: "POST /api/listings (API keys of 32 authors)",
  createOneAuthor: "POST /api/listings (API key of one author)",
  messages: "GET /api/messages (JWT)",
  keys: "GET /api/keys (API key)",
  myListings: "GET /api/listings?user_id={me} (API key: my listings)",
  distinctQ: `GET /api/listings?q=… (${DISTINCT_QUERIES.toLocaleString("en")} distinct: no answer reused)`,
  distinctQCategory: `GET /api/listings?q=…&category=… (${DISTINCT_QUERIES.toLocaleString("en")} distinct)`,
  distinctSearch: `GET /api/listings?search=… (${DISTINCT_QUERIES.toLocaleString("en")} distinct)`,
  login: "POST /api/auth/login",
  webBrowse: "GET / (web browse page)",
  webSearch: `GET /?q=${COMMON_TERM} (web search page)`,
  webListing: "GET /listings/{id} (web listing page, counts a view)",
  mixed: "mixed: pages, listing opens with a view, searches, 1 write in 25 (anonymous)",
} as const;

/**
 * Two users over the API (argon2id hashing and all): the owner gets an API
 * key and one listing, the peer writes 25 messages about it, so the owner's
 * message page is full (20 rows).
 */
export async function prepareFixtures(base: string, sampleIds: string[]): Promise<Fixtures> {
  const owner = await makeUser(base, "owner@bench.example");
  const peer = await makeUser(base, "peer@bench.example");
  const created = await api(base, "POST", "/api/listings", { apiKey: owner.apiKey, body: newListing(0) });
  const listingId = text(created, "listing", "id");
  for (let i = 0; i < 25; i++) {
    const sent = await api(base, "POST", "/api/messages", {
      token: peer.token,
      body: { listing_id: listingId, receiver_id: owner.id, content: `Is this still available? (${i})` },
    });
    if (sent.status !== 201 && sent.status !== 200)
      throw new Error(`message: ${sent.status} ${JSON.stringify(sent.body)}`);
  }
  const viewId = sampleIds[Math.floor(sampleIds.length / 2)];
  if (!viewId) throw new Error("the seed returned no listing ids");
  const authors: BenchUser[] = [];
  for (let i = 0; i < AUTHORS; i++) authors.push(await makeUser(base, `author-${i}@bench.example`));
  return { owner, peer, viewId, sampleIds, authors };
}

const json = { "content-type": "application/json" };

/** The eight endpoints of issue 8, the uncached page and the one-author create, in table order. */
export function targets(f: Fixtures): Target[] {
  return [
    { name: ENDPOINT.page, paths: ["/api/listings"] },
    // The same page for a signed-in caller: read, presented and hashed on every request.
    { name: ENDPOINT.pageUncached, paths: ["/api/listings"], headers: { "x-api-key": f.owner.apiKey } },
    { name: ENDPOINT.search, paths: [`/api/listings?search=${COMMON_TERM}`] },
    { name: ENDPOINT.category, paths: [`/api/listings?category=${PAGE_CATEGORY}`] },
    { name: ENDPOINT.byId, paths: f.sampleIds.map((id) => `/api/listings/${id}`) },
    { name: ENDPOINT.view, method: "POST", paths: [`/api/listings/${f.viewId}/view`] },
    // Creates as a marketplace gets them, from many authors: each insert counts its
    // author's active listings (the slot check), which one author's thousands would dominate.
    {
      name: ENDPOINT.create,
      method: "POST",
      paths: ["/api/listings"],
      headers: json,
      headerSets: f.authors.map((author) => ({ "x-api-key": author.apiKey })),
      body: JSON.stringify(newListing(1)),
    },
    // One author with unbounded slots: each insert counts the thousands it already holds.
    {
      name: ENDPOINT.createOneAuthor,
      method: "POST",
      paths: ["/api/listings"],
      headers: { ...json, "x-api-key": f.owner.apiKey },
      body: JSON.stringify(newListing(1)),
    },
    {
      name: ENDPOINT.messages,
      paths: ["/api/messages"],
      headers: { authorization: `Bearer ${f.owner.token}` },
    },
    // Signed-in reads besides the inbox: the keys page and the author's own listings.
    { name: ENDPOINT.keys, paths: ["/api/keys"], headers: { "x-api-key": f.owner.apiKey } },
    {
      name: ENDPOINT.myListings,
      paths: [`/api/listings?user_id=${f.owner.id}`],
      headers: { "x-api-key": f.owner.apiKey },
    },
    // Searches no cached answer serves: every request a query none asked within the round.
    { name: ENDPOINT.distinctQ, paths: ["/api/listings"], next: rotation(distinctPaths("q", false, 30)) },
    {
      name: ENDPOINT.distinctQCategory,
      paths: ["/api/listings"],
      next: rotation(distinctPaths("q", true, 31)),
    },
    {
      name: ENDPOINT.distinctSearch,
      paths: ["/api/listings"],
      next: rotation(distinctPaths("search", false, 32)),
    },
    {
      name: ENDPOINT.login,
      method: "POST",
      paths: ["/api/auth/login"],
      headers: json,
      body: JSON.stringify({ email: f.peer.email, password: f.peer.password }),
    },
    // The pages for people: rendered per request (never from the answer cache), compared with the JSON rows.
    { name: ENDPOINT.webBrowse, paths: ["/"] },
    { name: ENDPOINT.webSearch, paths: [`/?q=${COMMON_TERM}`] },
    // Not the view row's listing: its count is checked against the view row's acknowledged requests.
    {
      name: ENDPOINT.webListing,
      paths: f.sampleIds.filter((id) => id !== f.viewId).map((id) => `/listings/${id}`),
    },
    { name: ENDPOINT.mixed, paths: ["/api/listings"], requests: mixedRequests(f) },
  ];
}

/**
 * Traffic as a marketplace gets it, no URL repeated back to back: each
 * connection walks a cycle of 94 requests: 34 page reads over every category
 * and page size, 25 listing opens each followed by its view, 6 searches for
 * distinct words, 4 creates by the 32 authors. What the answer cache can keep
 * survives the views; the creates end every kept page, as they must.
 */
export function mixedRequests(f: Fixtures): NonNullable<Target["requests"]> {
  const requests: NonNullable<Target["requests"]> = [];
  const body = JSON.stringify(newListing(1));
  for (let i = 0; i < 25; i++) {
    const category = CATEGORY_VALUES[i % CATEGORY_VALUES.length];
    requests.push({
      path: i % 2 === 0 ? `/api/listings?category=${category}` : `/api/listings?limit=${5 + (i % 15)}`,
    });
    if (i % 3 === 0) requests.push({ path: "/api/listings" });
    const id = f.sampleIds[(i * 7) % f.sampleIds.length];
    requests.push({ path: `/api/listings/${id}` }, { method: "POST", path: `/api/listings/${id}/view` });
    if (i % 4 === 1) requests.push({ path: `/api/listings?q=${WORDS[(i * 5) % WORDS.length]}` });
    if (i % 6 === 5) {
      const author = f.authors[i % f.authors.length];
      requests.push({
        method: "POST",
        path: "/api/listings",
        headers: { ...json, "x-api-key": author?.apiKey ?? "" },
        body,
      });
    }
  }
  return requests;
}

/** The stored view count of a listing, read over the API. */
export async function viewsOf(base: string, id: string): Promise<number> {
  const answer = await api(base, "GET", `/api/listings/${id}`);
  const views = (answer.body as { listing?: { views?: unknown } }).listing?.views;
  if (typeof views !== "number") throw new Error(`GET listing ${id}: ${answer.status}`);
  return views;
}

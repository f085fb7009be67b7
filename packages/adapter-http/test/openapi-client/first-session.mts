/**
 * The README's first session, written the way a client of the API writes it:
 * with the types openapi-typescript generates from /openapi.json (default
 * options) and openapi-fetch, and without a single cast. openapi-client.test.ts
 * copies this file beside the freshly generated `schema.ts`, type-checks both
 * (strict) and runs it against the app in process. `pnpm typecheck` leaves it
 * out (its `include` names `.ts` files only): the types it needs are generated.
 */
import createClient from "openapi-fetch";
import type { paths } from "./schema.js";

/** Runs the session through `fetch` and returns what a caller would look at. */
export async function firstSession(fetch: (request: Request) => Promise<Response>) {
  const api = createClient<paths>({ baseUrl: "http://localhost", fetch });
  const credentials = { email: "ada@example.com", password: "correct horse" };

  const signUp = await api.POST("/api/auth/signup", { body: credentials });
  if (signUp.error) throw new Error(`sign-up: ${signUp.error.code}`);

  const logIn = await api.POST("/api/auth/login", { body: credentials });
  if (logIn.error) throw new Error(`log-in: ${logIn.error.code}`);
  const bearer = { Authorization: `Bearer ${logIn.data.token}` };

  // No body: the key takes the default name.
  const created = await api.POST("/api/keys", { headers: bearer });
  if (created.error) throw new Error(`create key: ${created.error.code}`);
  const apiKey = { "X-API-Key": created.data.key.key };

  const anonymous = await api.POST("/api/listings", {
    body: { title: "Kubernetes audit", description: "Two-week review", category: "cybersecurity" },
  });

  const published = await api.POST("/api/listings", {
    headers: apiKey,
    body: {
      title: "Kubernetes audit",
      description: "Two-week review",
      category: "cybersecurity",
      price: 4800,
    },
  });
  if (published.error) throw new Error(`create listing: ${published.error.code}`);
  const { listing } = published.data;

  const search = await api.GET("/api/listings", { params: { query: { search: "kubernetes" } } });
  if (search.error) throw new Error(`search: ${search.error.code}`);

  const one = await api.GET("/api/listings/{id}", { params: { path: { id: listing.id } } });
  if (one.error) throw new Error(`get listing: ${one.error.code}`);

  const me = await api.GET("/api/auth/me", { headers: apiKey });
  if (me.error) throw new Error(`me: ${me.error.code}`);

  return {
    user: signUp.data.user,
    token: logIn.data.token,
    key: created.data.key,
    anonymous: { status: anonymous.response.status, code: anonymous.error?.code },
    listing,
    found: { count: search.data.count, ids: search.data.items.map((item) => item.id) },
    fetched: one.data.listing,
    me: me.data.user,
  };
}

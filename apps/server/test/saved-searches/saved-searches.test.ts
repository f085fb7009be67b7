import { describe, expect, test } from "vitest";
import { signUpAndLogIn } from "../support/accounts.js";
import { NAMED_BACKENDS, reportSkippedPostgres } from "../support/backends.js";
import { useHarness } from "../support/harness.js";
import { call, expectError, expectStatus, str } from "../support/http.js";
import { tail } from "../support/server-process.js";
import { waitFor } from "../support/wait.js";

// Saved searches end to end over the API of the compiled server: the server's own matcher (started
// with it, off the request path) tells the owner of a new matching listing by an event, once.

reportSkippedPostgres("saved searches end to end");

const AUDIT = {
  title: "Penetration testing of web shops",
  description: "A week",
  category: "cybersecurity",
  price: 6000,
};

describe.each(NAMED_BACKENDS)("saved searches on $name", ({ backend }) => {
  const h = useHarness();

  test("save, list, be told once of a matching listing that is not one's own, delete", {
    timeout: 180_000,
  }, async () => {
    const database = await h.database(backend, "psm_saved");
    const server = await h.server({ dataDir: await h.dataDir(), env: database.env });
    const context = () => tail(server.output());
    const buyer = await signUpAndLogIn(server.url, "buyer@example.com", "buyer-password");
    const seller = await signUpAndLogIn(server.url, "seller@example.com", "seller-password");

    const created = await call(server.url, "POST", "/api/saved-searches", {
      token: buyer.token,
      body: { q: "penetration test", category: "cybersecurity", max_price: 8000, name: "Pentests" },
    });
    expectStatus(created, 201);
    const saved = created.body.saved_search as Record<string, unknown>;
    expect(saved).toEqual({
      id: expect.any(String),
      name: "Pentests",
      q: "penetration test",
      search: null,
      category: "cybersecurity",
      min_price: null,
      max_price: 8000,
      created_at: expect.any(String),
    });
    const listed = await call(server.url, "GET", "/api/saved-searches?limit=1", { token: buyer.token });
    expectStatus(listed, 200);
    expect(listed.body).toEqual({ saved_searches: [saved], count: 1, next_cursor: null });

    await call(server.url, "POST", "/api/listings", { token: buyer.token, body: AUDIT });
    const tooDear = await call(server.url, "POST", "/api/listings", {
      token: seller.token,
      body: { ...AUDIT, price: 9000 },
    });
    expectStatus(tooDear, 201);
    const listing = await call(server.url, "POST", "/api/listings", { token: seller.token, body: AUDIT });
    expectStatus(listing, 201);
    const listingId = str(listing.body.listing?.id);
    const matched = async () => {
      const events = await call(server.url, "GET", "/api/events?types=saved_search.matched", {
        token: buyer.token,
      });
      return events.body.events as unknown as { data: Record<string, string> }[];
    };
    await waitFor(
      "a saved_search.matched event",
      async () => ((await matched()).length > 0 ? true : undefined),
      {
        context,
      },
    );
    // An edit later is no new match: the owner was told of this listing once.
    const edit = await call(server.url, "PATCH", `/api/listings/${listingId}`, {
      token: seller.token,
      body: { description: "Two weeks" },
    });
    expectStatus(edit, 200);
    const marker = await call(server.url, "POST", "/api/listings", {
      token: seller.token,
      body: { ...AUDIT, title: "Penetration tests for banks" },
    });
    await waitFor(
      "the second listing's match",
      async () => ((await matched()).length > 1 ? true : undefined),
      {
        context,
      },
    );
    expect((await matched()).map((event) => event.data)).toEqual([
      { saved_search_id: saved.id, listing_id: listingId },
      { saved_search_id: saved.id, listing_id: str(marker.body.listing?.id) },
    ]);

    expectError(
      await call(server.url, "DELETE", `/api/saved-searches/${str(saved.id)}`, { token: seller.token }),
      404,
      "saved_search_not_found",
    );
    const deleted = await call(server.url, "DELETE", `/api/saved-searches/${str(saved.id)}`, {
      token: buyer.token,
    });
    expectStatus(deleted, 200);
    expect(deleted.body).toEqual({ success: true });
  });

  test("at most 20 per user (403), at least one criterion (400), and only with the scope", {
    timeout: 180_000,
  }, async () => {
    const database = await h.database(backend, "psm_saved_rules");
    const server = await h.server({ dataDir: await h.dataDir(), env: database.env });
    const buyer = await signUpAndLogIn(server.url, "buyer@example.com", "buyer-password");
    expectError(
      await call(server.url, "POST", "/api/saved-searches", { token: buyer.token, body: { name: "all" } }),
      400,
      "invalid_input",
    );
    for (let i = 0; i < 20; i++) {
      const made = await call(server.url, "POST", "/api/saved-searches", {
        token: buyer.token,
        body: { q: `word${i}` },
      });
      expectStatus(made, 201);
    }
    expectError(
      await call(server.url, "POST", "/api/saved-searches", { token: buyer.token, body: { q: "more" } }),
      403,
      "saved_search_limit_reached",
    );
    const key = await call(server.url, "POST", "/api/keys", {
      token: buyer.token,
      body: { scopes: ["events:read"] },
    });
    expectStatus(key, 200);
    expectError(
      await call(server.url, "GET", "/api/saved-searches", { apiKey: str(key.body.key?.key) }),
      403,
      "insufficient_scope",
    );
  });
});

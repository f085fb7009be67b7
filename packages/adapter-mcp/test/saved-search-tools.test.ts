/**
 * Saved searches over MCP, with the SDK's real client over Streamable HTTP: an agent saves a
 * search, sees it listed, is told of a new matching listing by an event once the matcher ran, and
 * deletes it; refusals carry the API's codes.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { call } from "./support/calls.js";
import { type Harness, harness } from "./support/harness.js";

let h: Harness;
beforeAll(async () => {
  h = await harness();
});

describe("saved search tools", () => {
  it("save, list, be told of a match by an event, delete", async () => {
    const buyer = await h.member("buyer");
    const seller = await h.member("seller");
    const client = await h.overHttp({ "X-API-Key": buyer.key });
    const sellerClient = await h.overHttp({ "X-API-Key": seller.key });
    try {
      const created = await call(client, "create_saved_search", {
        q: "penetration test",
        category: "cybersecurity",
        max_price: 8000,
      });
      expect(created.isError).toBe(false);
      const saved = { id: String(created.body.saved_search?.id) };
      expect(created.body.saved_search).toMatchObject({
        q: "penetration test",
        search: null,
        category: "cybersecurity",
        min_price: null,
        max_price: 8000,
        name: "penetration test, cybersecurity, up to 8000",
      });
      const listed = await call(client, "list_saved_searches");
      expect(listed.body).toMatchObject({ count: 1, next_cursor: null });

      const listing = await call(sellerClient, "create_listing", {
        title: "Penetration testing of web shops",
        description: "A week of testing.",
        category: "cybersecurity",
        price: 6000,
      });
      expect(listing.isError).toBe(false);
      await h.marketplace.savedSearches.match();
      const events = await call(client, "list_events", { types: "saved_search.matched" });
      expect(events.body.events).toMatchObject([
        {
          type: "saved_search.matched",
          data: { saved_search_id: saved.id, listing_id: String(listing.body.listing?.id) },
        },
      ]);

      expect((await call(client, "delete_saved_search", { id: saved.id })).body).toEqual({ success: true });
      const again = await call(client, "delete_saved_search", { id: saved.id });
      expect(again).toMatchObject({ isError: true, body: { code: "saved_search_not_found" } });
    } finally {
      await client.close();
      await sellerClient.close();
    }
  });

  it("refuses a search without a criterion, naming the argument where one is wrong", async () => {
    const member = await h.member("empty");
    const client = await h.overHttp({ "X-API-Key": member.key });
    try {
      expect(await call(client, "create_saved_search", { name: "all" })).toMatchObject({
        isError: true,
        body: { code: "invalid_input" },
      });
      const invalid = await call(client, "create_saved_search", { min_price: -5 });
      expect(invalid).toMatchObject({ isError: true, body: { code: "invalid_input" } });
      expect(String(invalid.body.error)).toMatch(/^min_price: /);
    } finally {
      await client.close();
    }
  });
});

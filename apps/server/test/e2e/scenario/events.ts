import { describe, expect, it } from "vitest";
import { arr, expectError, expectStatus, str } from "../../support/http.js";
import { accountsBeforeAll } from "../../support/scenario.js";
import type { World } from "../../support/world.js";

const LISTING = {
  title: "Penetration test",
  description: "Two weeks, with a report",
  category: "cybersecurity",
};

/** The event feed: what happened to a user's listings and messages, polled with the last seq seen. */
export function eventScenario(world: () => World): void {
  describe("events", () => {
    const [seller, buyer] = accountsBeforeAll(world, "events-seller", "events-buyer");

    it("tells the author of each listing change and the receiver of a message, oldest first; polling never repeats one", async () => {
      const { api } = world();
      const start = await api.get("/api/events", { apiKey: seller.key });
      expectStatus(start, 200);
      const before = arr(start.body.events);
      const after = before.length === 0 ? 0 : Number(before.at(-1)?.seq);

      const created = await api.post("/api/listings", { apiKey: seller.key, body: LISTING });
      expectStatus(created, 201);
      const id = str(created.body.listing?.id);
      expectStatus(
        await api.patch(`/api/listings/${id}`, { apiKey: seller.key, body: { price: 9000 } }),
        200,
      );
      const sent = await api.post("/api/messages", {
        apiKey: buyer.key,
        body: { listing_id: id, sender_id: buyer.id, receiver_id: seller.id, content: "Free in May?" },
      });
      expectStatus(sent, 201);

      const feed = await api.get(`/api/events?after=${after}`, { apiKey: seller.key });
      expectStatus(feed, 200);
      const events = arr(feed.body.events);
      expect(feed.body.count).toBe(3);
      expect(events.map((e) => e.type)).toEqual(["listing.created", "listing.updated", "message.received"]);
      expect(events[0]).toEqual({
        seq: expect.any(Number),
        id: expect.stringMatching(/^evt_[0-9A-Z]{26}$/),
        type: "listing.created",
        occurred_at: expect.any(String),
        data: { listing_id: id },
      });
      expect(events[2]?.data).toEqual({
        message_id: str(sent.body.data?.id),
        listing_id: id,
        sender_id: buyer.id,
      });
      const seqs = events.map((e) => Number(e.seq));
      expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
      expect(seqs[0]).toBeGreaterThan(after);

      const next = await api.get(`/api/events?after=${seqs.at(-1)}`, { apiKey: seller.key });
      expect(arr(next.body.events)).toEqual([]);
      const onlyMessages = await api.get(`/api/events?after=${after}&types=message.received`, {
        apiKey: seller.key,
      });
      expect(arr(onlyMessages.body.events).map((e) => e.seq)).toEqual([seqs[2]]);
      const buyerFeed = await api.get(`/api/events?after=${after}`, { token: buyer.token });
      expect(
        arr(buyerFeed.body.events).filter((e) => (e.data as { listing_id?: string })?.listing_id === id),
      ).toEqual([]);
    });

    it("needs credentials, events:read on a limited key, and a well-formed query", async () => {
      const { api } = world();
      expectError(await api.get("/api/events"), 401, "unauthenticated");
      const limited = await api.post("/api/keys", {
        token: seller.token,
        body: { scopes: ["listings:write"] },
      });
      expectError(
        await api.get("/api/events", { apiKey: str(limited.body.key?.key) }),
        403,
        "insufficient_scope",
      );
      const reader = await api.post("/api/keys", { token: seller.token, body: { scopes: ["events:read"] } });
      expectStatus(await api.get("/api/events", { apiKey: str(reader.body.key?.key) }), 200);
      expectError(await api.get("/api/events?after=-1", { apiKey: seller.key }), 400, "invalid_input");
      expectError(await api.get("/api/events?limit=101", { apiKey: seller.key }), 400, "invalid_input");
      expectError(
        await api.get("/api/events?types=listing.exploded", { apiKey: seller.key }),
        400,
        "invalid_input",
      );
    });
  });
}

import { describe, expect, it } from "vitest";
import { EVENT_RETENTION_MS } from "../../domain/event.js";
import { expectCode, expectInvalidField, setup } from "../../testing/use-case-kit.js";

const LISTING = { title: "Audit", description: "Two weeks", category: "cybersecurity" } as const;
const EVENT_ID = /^evt_[0-9A-HJKMNP-TV-Z]{26}$/;

async function world() {
  const kit = setup();
  const seller = await kit.signUpAndLogIn("seller@example.com");
  const buyer = await kit.signUpAndLogIn("buyer@example.com");
  return { ...kit, seller, buyer };
}

describe("events.list: what happened, told to whom it concerns", () => {
  it("a listing created, edited and deleted tells its author, oldest first, with thin data", async () => {
    const { market, seller, buyer, deps } = await world();
    const listing = await market.listings.create(seller.actor, LISTING);
    await market.listings.update(seller.actor, { id: listing.id, title: "Audit, revised" });
    await market.listings.delete(seller.actor, { id: listing.id });
    const events = await market.events.list(seller.actor, {});
    expect(events.map((e) => e.type)).toEqual(["listing.created", "listing.updated", "listing.deleted"]);
    for (const event of events) {
      expect(event.id).toMatch(EVENT_ID);
      expect(event.data).toEqual({ listing_id: listing.id });
      expect(event.occurredAt).toEqual(deps.clock.now());
    }
    expect(new Set(events.map((e) => e.id)).size).toBe(3);
    expect(await market.events.list(buyer.actor, {})).toEqual([]);
  });

  it("a message tells its receiver, naming the message, listing and sender", async () => {
    const { market, seller, buyer } = await world();
    const listing = await market.listings.create(seller.actor, LISTING);
    const message = await market.messages.send(buyer.actor, {
      listingId: listing.id,
      receiverId: seller.user.id,
      content: "Is March free?",
    });
    const [received] = await market.events.list(seller.actor, { types: "message.received" });
    expect(received).toMatchObject({
      type: "message.received",
      userId: seller.user.id,
      data: { message_id: message.id, listing_id: listing.id, sender_id: buyer.user.id },
    });
    expect(await market.events.list(buyer.actor, {})).toEqual([]);
  });

  it("an admin's edit or removal of a listing is told to its author", async () => {
    const { market, seller, logInAdmin } = await world();
    const admin = await logInAdmin();
    const [a, b] = [
      await market.listings.create(seller.actor, LISTING),
      await market.listings.create(seller.actor, LISTING),
    ];
    await market.listings.update(admin.actor, { id: a.id, status: "paused" });
    await market.admin.deletePost(admin.actor, { postId: b.id });
    const types = (await market.events.list(seller.actor, {})).map((e) => `${e.type} ${e.data.listing_id}`);
    expect(types).toEqual([
      `listing.created ${a.id}`,
      `listing.created ${b.id}`,
      `listing.updated ${a.id}`,
      `listing.deleted ${b.id}`,
    ]);
    expect(await market.events.list(admin.actor, {})).toEqual([]);
  });

  it("a refused change tells nothing", async () => {
    const kit = setup({ slots: { personal: 1, business: 1, admin: 1 } });
    const { actor } = await kit.signUpAndLogIn("full@example.com");
    await kit.market.listings.create(actor, LISTING);
    await expectCode(kit.market.listings.create(actor, LISTING), "listing_limit_reached");
    expect((await kit.market.events.list(actor, {})).map((e) => e.type)).toEqual(["listing.created"]);
  });

  it("pages by after and limit, filters by types (a list or comma-separated), and refuses bad queries", async () => {
    const { market, seller } = await world();
    for (let i = 0; i < 3; i++) await market.listings.create(seller.actor, LISTING);
    const all = await market.events.list(seller.actor, {});
    const [first, second, third] = all;
    expect(await market.events.list(seller.actor, { after: String(first!.seq), limit: "1" })).toEqual([
      second,
    ]);
    expect(await market.events.list(seller.actor, { after: second!.seq })).toEqual([third]);
    expect(await market.events.list(seller.actor, { types: "listing.deleted,listing.created" })).toEqual(all);
    expect(await market.events.list(seller.actor, { types: ["listing.deleted"] })).toEqual([]);
    await expectInvalidField(
      market.events.list(seller.actor, { after: -1 }),
      "after",
      "after: must be at least 0",
    );
    await expectInvalidField(
      market.events.list(seller.actor, { limit: 101 }),
      "limit",
      "limit: must be at most 100",
    );
    await expectCode(market.events.list(seller.actor, { types: "listing.exploded" }), "invalid_input");
    await expectCode(market.events.list(seller.actor, { after: "1e3" }), "invalid_input");
  });

  it("needs a caller, and a key limited to scopes needs events:read", async () => {
    const { market, seller } = await world();
    await expectCode(market.events.list({ kind: "anonymous" }, {}), "unauthenticated");
    const without = await market.auth.authenticate({
      apiKey: (await market.apiKeys.create(seller.actor, { scopes: ["listings:write"] })).secret,
    });
    await expectCode(market.events.list(without, {}), "insufficient_scope");
    const reader = await market.auth.authenticate({
      apiKey: (await market.apiKeys.create(seller.actor, { scopes: ["events:read"] })).secret,
    });
    await expect(market.events.list(reader, {})).resolves.toEqual([]);
  });

  it("are kept 90 days: the sweep removes older ones", async () => {
    const { market, seller, deps } = await world();
    await market.listings.create(seller.actor, LISTING);
    deps.clock.advance(EVENT_RETENTION_MS - 1);
    expect((await market.maintenance.sweepExpired()).events).toBe(0);
    deps.clock.advance(2);
    expect((await market.maintenance.sweepExpired()).events).toBe(1);
    expect(await market.events.list(seller.actor, {})).toEqual([]);
  });
});

import { describe, expect, it } from "vitest";
import type { Mode } from "../../support/backends.js";
import { expectError, expectStatus, ids, str } from "../../support/http.js";
import { accountsBeforeAll, listingBeforeAll } from "../../support/scenario.js";
import type { World } from "../../support/world.js";

const UNKNOWN = "0190f5c2-0000-7000-8000-000000000002";

/** Messaging a listing's author: strict mode requires a caller, legacy mode is 1.0.2's open door. */
export function messageScenario(mode: Mode, world: () => World): void {
  describe("messages", () => {
    const [seller, buyer, bystander] = accountsBeforeAll(world, "msg-seller", "msg-buyer", "msg-bystander");
    const listing = listingBeforeAll(world, seller, { title: "Ask me" });

    const send = (body: Record<string, unknown>, auth: { token?: string; apiKey?: string } = {}) =>
      world().api.post("/api/messages", {
        ...auth,
        body: { listing_id: listing.id, content: "Is March free?", ...body },
      });

    if (mode === "strict")
      it("sends as the caller (strict) and lists received and sent", async () => {
        const sent = await send({ receiver_id: seller.id }, { token: buyer.token });
        expectStatus(sent, 201);
        expect(sent.body).toEqual({
          message: expect.any(String),
          data: {
            id: expect.any(String),
            listing_id: listing.id,
            sender_id: buyer.id,
            receiver_id: seller.id,
            content: "Is March free?",
            is_agent: false,
            created_at: expect.any(String),
          },
        });
        const byAgent = await send({ receiver_id: seller.id, sender_id: buyer.id }, { apiKey: buyer.key });
        expectStatus(byAgent, 201);
        expect(byAgent.body.data).toMatchObject({ sender_id: buyer.id, is_agent: true });
        const reply = await send({ receiver_id: buyer.id, content: "Yes" }, { apiKey: seller.key });
        expectStatus(reply, 201);

        const inbox = await world().api.get("/api/messages", { token: seller.token });
        expectStatus(inbox, 200);
        expect(inbox.body).toMatchObject({ type: "received", count: 2, next_cursor: null });
        expect(ids(inbox.body.messages)).toEqual([str(byAgent.body.data?.id), str(sent.body.data?.id)]);
        const outbox = await world().api.get(`/api/messages?user_id=${buyer.id}&type=sent`, {
          apiKey: buyer.key,
        });
        expect(outbox.body).toMatchObject({ type: "sent", count: 2 });
        const buyerInbox = await world().api.get("/api/messages?type=received", { token: buyer.token });
        expect(ids(buyerInbox.body.messages)).toEqual([str(reply.body.data?.id)]);
        const paged = await world().api.get("/api/messages?limit=1", { token: seller.token });
        expect(paged.body).toMatchObject({ count: 1, next_cursor: expect.any(String) });
      });

    if (mode === "strict")
      it("refuses anonymous 401, another sender or reader 403, unknown parties 404", async () => {
        const w = world();
        expectError(await send({ receiver_id: seller.id, sender_id: buyer.id }), 401, "unauthenticated");
        expectError(await w.api.get(`/api/messages?user_id=${seller.id}`), 401, "unauthenticated");
        expectError(
          await send({ receiver_id: seller.id, sender_id: bystander.id }, { token: buyer.token }),
          403,
        );
        expectError(await send({ receiver_id: bystander.id }, { token: buyer.token }), 403, "forbidden");
        expectError(
          await w.api.get(`/api/messages?user_id=${seller.id}`, { token: buyer.token }),
          403,
          "forbidden",
        );
        expectError(
          await send({ receiver_id: seller.id, listing_id: UNKNOWN }, { token: buyer.token }),
          404,
          "listing_not_found",
        );
        expectError(await send({ receiver_id: UNKNOWN }, { token: buyer.token }), 404, "user_not_found");
        const asAdmin = await w.api.get(`/api/messages?user_id=${seller.id}`, { token: w.admin.token });
        expectStatus(asAdmin, 200);
        expect(asAdmin.body.count).toBe(2);
      });

    if (mode === "legacy")
      it("lets anyone send with a sender_id and read by user_id (as 1.0.2)", async () => {
        const w = world();
        const sent = await send({ sender_id: buyer.id, receiver_id: seller.id });
        expectStatus(sent, 201);
        expect(sent.body.data).toMatchObject({
          sender_id: buyer.id,
          receiver_id: seller.id,
          is_agent: false,
        });
        const agent = await send({ sender_id: buyer.id, receiver_id: seller.id, is_agent: true });
        expect(agent.body.data?.is_agent).toBe(true);
        const inbox = await w.api.get(`/api/messages?user_id=${seller.id}`);
        expectStatus(inbox, 200);
        expect(inbox.body).toMatchObject({ type: "received", count: 2 });
        expect(ids(inbox.body.messages)).toEqual([str(agent.body.data?.id), str(sent.body.data?.id)]);
        const outbox = await w.api.get(`/api/messages?user_id=${buyer.id}&type=sent`);
        expect(outbox.body).toMatchObject({ type: "sent", count: 2 });
        // The caller's own inbox still works with a key.
        expect((await w.api.get("/api/messages", { apiKey: seller.key })).body.count).toBe(2);
        expectError(await send({ receiver_id: seller.id }), 400, "invalid_input");
        expectError(await send({ sender_id: UNKNOWN, receiver_id: seller.id }), 404, "user_not_found");
      });

    it("keeps messages about a deleted listing", async () => {
      const w = world();
      const id = str((await w.listing(seller, { title: "Gone soon" })).id);
      const sent = await w.api.post("/api/messages", {
        token: buyer.token,
        body: { listing_id: id, sender_id: buyer.id, receiver_id: seller.id, content: "Still there?" },
      });
      expectStatus(sent, 201);
      expectStatus(await w.api.delete(`/api/listings/${id}`, { apiKey: seller.key }), 200);
      const inbox = await w.api.get(`/api/messages?user_id=${seller.id}`, { token: seller.token });
      expect(ids(inbox.body.messages)).toContain(str(sent.body.data?.id));
    });
  });
}

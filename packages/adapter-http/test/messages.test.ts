import { describe, expect, test } from "vitest";
import { expectError, UNKNOWN_ID, withListing } from "./helpers.js";

const MESSAGE_KEYS = ["content", "created_at", "id", "is_agent", "listing_id", "receiver_id", "sender_id"];

describe("messages, strict mode", () => {
  test("send 201 {message, data}; list {messages, count, type, next_cursor}", async () => {
    const { h, author, buyer, listing } = await withListing();
    const res = await h.call("POST", "/api/messages", {
      token: buyer.token,
      body: { listing_id: listing.id, receiver_id: author.id, content: "Interested" },
    });
    expect(res.status).toBe(201);
    const body = await h.json<{ message: string; data: Record<string, unknown> }>(res);
    expect(body.message).toBe("Message sent");
    expect(Object.keys(body.data).sort()).toEqual(MESSAGE_KEYS);
    expect(body.data).toMatchObject({ sender_id: buyer.id, receiver_id: author.id, is_agent: false });
    const key = await h.apiKey(buyer);
    const viaKey = await h.call("POST", "/api/messages", {
      key,
      body: { listing_id: listing.id, receiver_id: author.id, content: "From my agent" },
    });
    expect((await h.json<{ data: { is_agent: boolean } }>(viaKey)).data.is_agent).toBe(true);

    const inbox = await h.json<Record<string, unknown>>(
      await h.call("GET", "/api/messages", { token: author.token }),
    );
    expect(inbox).toMatchObject({ count: 2, type: "received", next_cursor: null });
    const sent = await h.json<Record<string, unknown>>(
      await h.call("GET", "/api/messages?type=sent", { key }),
    );
    expect(sent).toMatchObject({ count: 2, type: "sent" });
  });

  test("401 anonymous; 403 for another sender or another user's inbox; 404 unknown listing; 400 fields", async () => {
    const { h, author, buyer, listing } = await withListing();
    const body = { listing_id: listing.id, receiver_id: author.id, content: "Hi" };
    expect((await h.call("POST", "/api/messages", { body })).status).toBe(401);
    expect((await h.call("GET", `/api/messages?user_id=${author.id}`)).status).toBe(401);
    const spoof = await h.call("POST", "/api/messages", {
      token: buyer.token,
      body: { ...body, sender_id: author.id },
    });
    expect(spoof.status).toBe(403);
    const peek = await h.call("GET", `/api/messages?user_id=${author.id}`, { token: buyer.token });
    expect(peek.status).toBe(403);
    const unknown = await h.call("POST", "/api/messages", {
      token: buyer.token,
      body: { ...body, listing_id: UNKNOWN_ID },
    });
    expect(unknown.status).toBe(404);
    const missing = await h.call("POST", "/api/messages", {
      token: buyer.token,
      body: { listing_id: listing.id },
    });
    await expectError(missing, 400, { error: "receiver_id: is required", code: "invalid_input" });
    expect((await h.call("GET", "/api/messages?type=other", { token: buyer.token })).status).toBe(400);
  });
});

describe("messages, legacy mode (interface 1.0.2)", () => {
  test("anyone may send and read; user_id is required when anonymous", async () => {
    const { h, author, buyer, listing } = await withListing("legacy");
    const res = await h.call("POST", "/api/messages", {
      body: { listing_id: listing.id, sender_id: buyer.id, receiver_id: author.id, content: "Hello" },
    });
    expect(res.status).toBe(201);
    const inbox = await h.call("GET", `/api/messages?user_id=${author.id}`);
    expect(await inbox.json()).toMatchObject({ count: 1, type: "received" });
    const noUser = await h.call("GET", "/api/messages");
    await expectError(noUser, 400, { error: "user_id: is required", code: "invalid_input" });
    const noSender = await h.call("POST", "/api/messages", {
      body: { listing_id: listing.id, receiver_id: author.id, content: "Hello" },
    });
    expect(noSender.status).toBe(400);
  });
});

/**
 * OWASP API1:2023 Broken Object Level Authorization. Another user's messages,
 * keys, listings, profile sync and limit, reached by id or by id guessing.
 */
import { beforeEach, describe, expect, test } from "vitest";
import { guessedIds, type Session, type Target, target } from "./support/target.js";

let t: Target;
let alice: Session;
let mallory: Session;

beforeEach(async () => {
  t = target();
  alice = await t.signUp("alice@example.com");
  mallory = await t.signUp("mallory@example.com");
});

describe("listings", () => {
  test("PATCH and DELETE of another user's listing are 403 and change nothing", async () => {
    const listing = await t.listing(alice, { title: "Alice's offer" });
    const patch = await t.request("PATCH", `/api/listings/${listing.id}`, {
      token: mallory.token,
      body: { title: "Hijacked", status: "paused", price: 0 },
    });
    expect(patch.status).toBe(403);
    const viaKey = await t.request("DELETE", `/api/listings/${listing.id}`, {
      key: (await t.apiKey(mallory)).key,
    });
    expect(viaKey.status).toBe(403);
    expect((await t.request("DELETE", `/api/listings/${listing.id}`, { token: mallory.token })).status).toBe(
      403,
    );
    const after = await t.json<{ listing: Record<string, unknown> }>(
      await t.request("GET", `/api/listings/${listing.id}`),
    );
    expect(after.listing).toMatchObject({ title: "Alice's offer", status: "active", user_id: alice.id });
  });

  test("guessed ids next to a real one are never editable", async () => {
    const listing = await t.listing(alice);
    for (const id of guessedIds(listing.id)) {
      const res = await t.request("PATCH", `/api/listings/${id}`, {
        token: mallory.token,
        body: { title: "x" },
      });
      expect(res.status).toBe(404);
      expect((await t.request("DELETE", `/api/listings/${id}`, { token: mallory.token })).status).toBe(404);
    }
    expect((await t.request("GET", `/api/listings/${listing.id}`)).status).toBe(200);
  });
});

describe("messages", () => {
  test("another user's inbox and outbox are 403; a third party cannot read a conversation", async () => {
    const listing = await t.listing(alice);
    const bob = await t.signUp("bob@example.com");
    const sent = await t.request("POST", "/api/messages", {
      token: bob.token,
      body: { listing_id: listing.id, receiver_id: alice.id, content: "Private: my budget is 9000" },
    });
    expect(sent.status).toBe(201);
    for (const type of ["received", "sent"]) {
      for (const victim of [alice.id, bob.id]) {
        const res = await t.request("GET", `/api/messages?user_id=${victim}&type=${type}`, {
          token: mallory.token,
        });
        expect(res.status).toBe(403);
      }
    }
    for (const type of ["received", "sent"]) {
      const own = await t.json<{ messages: unknown[] }>(
        await t.request("GET", `/api/messages?type=${type}`, { token: mallory.token }),
      );
      expect(own.messages).toEqual([]);
    }
  });

  test("a message cannot be sent in another user's name", async () => {
    const listing = await t.listing(alice);
    const res = await t.request("POST", "/api/messages", {
      token: mallory.token,
      body: { listing_id: listing.id, sender_id: alice.id, receiver_id: alice.id, content: "Spoofed" },
    });
    expect(res.status).toBe(403);
  });
});

describe("API keys", () => {
  test("another user's key cannot be listed or deactivated, even by exact id", async () => {
    const aliceKey = await t.apiKey(alice);
    const list = await t.json<{ keys: { id: string; user_id: string }[] }>(
      await t.request("GET", "/api/keys", { token: mallory.token }),
    );
    expect(list.keys.every((key) => key.user_id === mallory.id)).toBe(true);
    for (const id of [aliceKey.id, ...guessedIds(aliceKey.id)]) {
      expect((await t.request("DELETE", `/api/keys/${id}`, { token: mallory.token })).status).toBe(404);
    }
    const stillWorks = await t.request("GET", "/api/auth/me", { key: aliceKey.key });
    expect(stillWorks.status).toBe(200);
  });
});

describe("profiles", () => {
  test("syncing another user's profile is 403 and renames nothing", async () => {
    const res = await t.request("POST", "/api/profiles/sync", {
      token: mallory.token,
      body: { id: alice.id, email: alice.email, display_name: "Pwned", account_type: "business" },
    });
    expect(res.status).toBe(403);
    const me = await t.json<{ user: Record<string, unknown> }>(
      await t.request("GET", "/api/auth/me", { token: alice.token }),
    );
    // Still the default name given at sign-up (never derived from the email).
    expect(me.user).toMatchObject({
      display_name: expect.stringMatching(/^Member [0-9a-f]{6}$/),
      account_type: "personal",
    });
  });

  test("POST /api/profiles/limit for another user (or a guessed id) is 403", async () => {
    for (const id of [alice.id, ...guessedIds(alice.id)]) {
      const res = await t.request("POST", "/api/profiles/limit", {
        token: mallory.token,
        body: { user_id: id },
      });
      expect(res.status).toBe(403);
    }
  });

  test("another user's email is not in the profile list", async () => {
    const list = await t.json<{ profiles: Record<string, unknown>[] }>(
      await t.request("GET", "/api/profiles", { token: mallory.token }),
    );
    const aliceProfile = list.profiles.find((p) => p.id === alice.id);
    expect(aliceProfile).toBeDefined();
    expect(aliceProfile).not.toHaveProperty("email");
  });
});

import { describe, expect, it } from "vitest";
import { call, fails, ok } from "./support/calls.js";
import { harness } from "./support/harness.js";

// A tool call's idempotency_key, through the SDK's real Client linked in
// memory: replays, refusals, and the key space it shares with REST.

const LISTING = { title: "API audit", description: "Two weeks of review.", category: "cybersecurity" };

describe("idempotency_key", () => {
  it("replays the first answer, refuses other arguments, and is refused malformed", async () => {
    const h = await harness();
    const alice = await h.member();
    const client = await h.linked(await h.actorOf({ apiKey: alice.key }));
    const first = await call(client, "create_listing", { ...LISTING, idempotency_key: "retry-1" });
    const again = await call(client, "create_listing", { idempotency_key: "retry-1", ...LISTING });
    expect(again.body).toEqual(first.body);
    expect([first.meta, again.meta]).toEqual([undefined, { idempotent_replayed: true }]);
    expect((await ok(client, "search_listings", { user_id: alice.id })).count).toBe(1);

    // Errors name the tool's argument, not the REST header.
    const reused = await fails(
      client,
      "create_listing",
      { ...LISTING, title: "Other", idempotency_key: "retry-1" },
      "idempotency_key_reused",
    );
    const invalid = await fails(
      client,
      "create_listing",
      { ...LISTING, idempotency_key: "has space" },
      "invalid_idempotency_key",
    );
    for (const refused of [reused, invalid]) {
      expect(refused.error).toContain("idempotency_key");
      expect(refused.error).not.toContain("Idempotency-Key");
    }
    await fails(client, "create_listing", { ...LISTING, idempotency_key: 7 }, "invalid_idempotency_key");
    // A 400 is not kept: the corrected retry with the same key runs.
    await fails(
      client,
      "create_listing",
      { title: "", description: "x", category: "cybersecurity", idempotency_key: "fix" },
      "invalid_input",
    );
    expect((await call(client, "create_listing", { ...LISTING, idempotency_key: "fix" })).isError).toBe(
      false,
    );
    // A kept refusal (404) is replayed as the same failure.
    const gone = { id: "0190a3b4-5c6d-7e8f-9012-3456789abcde", idempotency_key: "del-1" };
    await fails(client, "delete_listing", gone, "listing_not_found");
    const replayed = await call(client, "delete_listing", gone);
    expect(replayed.body.code).toBe("listing_not_found");
  });

  it("shares its key space with the REST route's Idempotency-Key", async () => {
    const h = await harness();
    const alice = await h.member();
    const body = `{"category":"cybersecurity","description":"Two weeks of review.","title":"API audit"}`;
    const rest = await h.app.request("/api/listings", {
      method: "POST",
      headers: { "X-API-Key": alice.key, "Content-Type": "application/json", "Idempotency-Key": "shared" },
      body,
    });
    expect(rest.status).toBe(201);
    const restBody = (await rest.json()) as { listing: { id: string } };
    const client = await h.linked(await h.actorOf({ apiKey: alice.key }));
    const retried = await call(client, "create_listing", { ...LISTING, idempotency_key: "shared" });
    expect(retried.meta).toEqual({ idempotent_replayed: true });
    expect(retried.body.listing?.id).toBe(restBody.listing.id);
  });
});

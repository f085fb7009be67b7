import { describe, expect, it } from "vitest";
import type { Actor } from "../../domain/actor.js";
import { MAX_WEBHOOKS_PER_USER, SECRET_ROTATION_GRACE_MS } from "../../domain/webhook.js";
import type { CreateWebhookInput } from "../../schemas/webhooks.js";
import { createTestDeps } from "../../testing/fakes/deps.js";
import { expectCode, expectInvalidField, setupWith } from "../../testing/use-case-kit.js";

const HOOK: CreateWebhookInput = {
  url: "https://hooks.example.com/in",
  types: ["message.received", "listing.created"],
};
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;

async function world() {
  const kit = setupWith(createTestDeps());
  const owner = await kit.signUpAndLogIn("owner@example.com");
  const other = await kit.signUpAndLogIn("other@example.com");
  return { ...kit, owner, other };
}

function keyActor(actor: Actor, scopes: string[]): Actor {
  return actor.kind === "user" ? ({ ...actor, via: "api_key", scopes } as Actor) : actor;
}

describe("webhooks: managed by their owner only", () => {
  it("creates a webhook with a secret shown once, types in the log's order, enabled", async () => {
    const { market, owner } = await world();
    const { webhook, secret } = await market.webhooks.create(owner.actor, { ...HOOK, description: " CRM " });
    expect(secret).toMatch(SECRET);
    expect(webhook).toMatchObject({
      url: HOOK.url,
      types: ["listing.created", "message.received"],
      description: "CRM",
      enabled: true,
      disabledReason: null,
    });
    expect((await market.webhooks.get(owner.actor, { id: webhook.id })).secrets[0]?.value).toBe(secret);
  });

  it("refuses a URL the transport will not reach, and a URL that is not http(s)", async () => {
    const { market, owner } = await world();
    await expectCode(
      market.webhooks.create(owner.actor, { ...HOOK, url: "http://127.0.0.1:8080/x" }),
      "webhook_url_forbidden",
    );
    await expectInvalidField(
      market.webhooks.create(owner.actor, { ...HOOK, url: "ftp://hooks.example.com/" }),
      "url",
    );
    await expectInvalidField(market.webhooks.create(owner.actor, { ...HOOK, types: [] }), "types");
    await expectInvalidField(
      market.webhooks.create(owner.actor, { ...HOOK, types: ["webhook.test"] as never }),
      "types.0",
    );
  });

  it("stops at ten webhooks per user", async () => {
    const { market, owner, other } = await world();
    for (let i = 0; i < MAX_WEBHOOKS_PER_USER; i++) await market.webhooks.create(owner.actor, HOOK);
    await expectCode(market.webhooks.create(owner.actor, HOOK), "webhook_limit_reached");
    await market.webhooks.create(other.actor, HOOK);
  });

  it("hides another user's webhook behind webhook_not_found, for every action", async () => {
    const { market, owner, other } = await world();
    const { webhook } = await market.webhooks.create(owner.actor, HOOK);
    const id = { id: webhook.id };
    await expectCode(market.webhooks.get(other.actor, id), "webhook_not_found");
    await expectCode(market.webhooks.update(other.actor, { ...id, enabled: false }), "webhook_not_found");
    await expectCode(market.webhooks.delete(other.actor, id), "webhook_not_found");
    await expectCode(market.webhooks.rotateSecret(other.actor, id), "webhook_not_found");
    await expectCode(market.webhooks.test(other.actor, id), "webhook_not_found");
    await expectCode(market.webhooks.deliveries(other.actor, id), "webhook_not_found");
    await expectCode(
      market.webhooks.replay(other.actor, { ...id, since: "2025-12-31T00:00:00Z" }),
      "webhook_not_found",
    );
    await expectCode(market.webhooks.get(owner.actor, { id: "not-a-uuid" }), "webhook_not_found");
    expect((await market.webhooks.list(other.actor, {})).items).toEqual([]);
  });

  it("needs the webhooks:manage scope on a limited key", async () => {
    const { market, owner } = await world();
    const limited = keyActor(owner.actor, ["events:read"]);
    await expectCode(market.webhooks.create(limited, HOOK), "insufficient_scope");
    await expectCode(market.webhooks.list(limited, {}), "insufficient_scope");
    await market.webhooks.create(keyActor(owner.actor, ["webhooks:manage"]), HOOK);
  });

  it("updates url (vetted again), types, description; turning on clears the relay's reason", async () => {
    const { market, owner, deps } = await world();
    const { webhook } = await market.webhooks.create(owner.actor, HOOK);
    await expectCode(
      market.webhooks.update(owner.actor, { id: webhook.id, url: "http://169.254.169.254/latest" }),
      "webhook_url_forbidden",
    );
    await deps.repos.webhooks.disable(webhook.id, "The receiver answered 410 Gone");
    const updated = await market.webhooks.update(owner.actor, {
      id: webhook.id,
      url: "https://new.example.org/hook",
      types: ["listing.deleted"],
      enabled: true,
    });
    expect(updated).toMatchObject({
      url: "https://new.example.org/hook",
      types: ["listing.deleted"],
      enabled: true,
      disabledReason: null,
    });
    expect(await market.webhooks.get(owner.actor, { id: webhook.id })).toEqual(updated);
  });

  it("rotates the secret: the new one and the old one for 24 hours, then the new one alone", async () => {
    const { market, owner, deps } = await world();
    const { webhook, secret: first } = await market.webhooks.create(owner.actor, HOOK);
    const { secret: second } = await market.webhooks.rotateSecret(owner.actor, { id: webhook.id });
    expect(second).toMatch(SECRET);
    expect(second).not.toBe(first);
    const stored = await market.webhooks.get(owner.actor, { id: webhook.id });
    expect(stored.secrets).toEqual([
      { value: second, expiresAt: null },
      { value: first, expiresAt: new Date(deps.clock.now().getTime() + SECRET_ROTATION_GRACE_MS) },
    ]);
  });

  it("deletes a webhook; it is gone for its owner too", async () => {
    const { market, owner } = await world();
    const { webhook } = await market.webhooks.create(owner.actor, HOOK);
    await market.webhooks.delete(owner.actor, { id: webhook.id });
    await expectCode(market.webhooks.get(owner.actor, { id: webhook.id }), "webhook_not_found");
  });

  it("is service_unavailable for an embedder that composed no transport", async () => {
    const kit = setupWith(createTestDeps({ webhookTransport: undefined }));
    const deps = { ...kit.deps, webhookTransport: undefined };
    const bare = setupWith(deps);
    const owner = await bare.signUpAndLogIn("bare@example.com");
    await expectCode(bare.market.webhooks.create(owner.actor, HOOK), "service_unavailable");
  });
});

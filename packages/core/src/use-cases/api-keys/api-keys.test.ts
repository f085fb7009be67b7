import { sha256Hex } from "@psm/core";
import { describe, expect, it } from "vitest";
import {
  expectCode,
  expectInvalidField,
  KIT_PASSWORD as PASSWORD,
  setup,
  untyped,
} from "../../testing/use-case-kit.js";

const SECOND = 1000;

describe("apiKeys.create", () => {
  it("returns psm_ + 64 lowercase hex once and stores only its SHA-256", async () => {
    const { deps, market, signUpAndLogIn } = setup();
    const { user, actor } = await signUpAndLogIn("a@example.com");
    const { apiKey, secret } = await market.apiKeys.create(actor, { name: "CI agent" });

    expect(secret).toMatch(/^psm_[0-9a-f]{64}$/);
    expect(apiKey).toMatchObject({ userId: user.id, name: "CI agent", isActive: true, lastUsed: null });
    const stored = await deps.repos.apiKeys.findById(apiKey.id);
    expect(stored?.keyHash).toBe(sha256Hex(secret));
    expect(JSON.stringify(stored)).not.toContain(secret.slice(4));
    expect(await deps.repos.apiKeys.findByHash(sha256Hex(secret))).toMatchObject({ id: apiKey.id });
  });

  it("names a key 'API Key' by default and makes a different value each time", async () => {
    const { market, signUpAndLogIn } = setup();
    const { actor } = await signUpAndLogIn("b@example.com");
    const first = await market.apiKeys.create(actor, untyped(undefined));
    const second = await market.apiKeys.create(actor, {});
    expect(first.apiKey.name).toBe("API Key");
    expect(second.apiKey.name).toBe("API Key");
    expect(first.secret).not.toBe(second.secret);
    expect(first.apiKey.id).not.toBe(second.apiKey.id);
  });

  it("works for an API-key actor, refuses anonymous callers and bad names", async () => {
    const { market, signUpAndLogIn } = setup();
    const { actor } = await signUpAndLogIn("c@example.com");
    const { secret } = await market.apiKeys.create(actor, {});
    const keyActor = await market.auth.authenticate({ apiKey: secret });
    await expect(market.apiKeys.create(keyActor, { name: "second" })).resolves.toHaveProperty("secret");
    await expectCode(market.apiKeys.create({ kind: "anonymous" }, {}), "unauthenticated");
    await expectCode(market.apiKeys.create(actor, { name: "" }), "invalid_input");
    await expectCode(market.apiKeys.create(actor, { name: "x".repeat(101) }), "invalid_input");
  });
});

describe("apiKeys.list", () => {
  it("lists the caller's own keys, newest first, without values; an admin sees all", async () => {
    const { market, signUpAndLogIn, logInAdmin } = setup();
    const alice = await signUpAndLogIn("alice@example.com");
    const bob = await signUpAndLogIn("bob@example.com");
    const a1 = await market.apiKeys.create(alice.actor, { name: "a1" });
    const b1 = await market.apiKeys.create(bob.actor, { name: "b1" });
    const a2 = await market.apiKeys.create(alice.actor, { name: "a2" });

    const own = await market.apiKeys.list(alice.actor, {});
    expect(own.items.map((k) => k.id)).toEqual([a2.apiKey.id, a1.apiKey.id]);
    expect(own.nextCursor).toBeNull();
    expect(JSON.stringify(own)).not.toContain(a1.secret);

    const bobs = await market.apiKeys.list(bob.actor, {});
    expect(bobs.items.map((k) => k.id)).toEqual([b1.apiKey.id]);

    const admin = (await logInAdmin()).actor;
    const all = await market.apiKeys.list(admin, {});
    expect(all.items.map((k) => k.id)).toEqual([a2.apiKey.id, b1.apiKey.id, a1.apiKey.id]);
  });

  it("pages with a cursor and refuses anonymous callers", async () => {
    const { market, signUpAndLogIn } = setup();
    const { actor } = await signUpAndLogIn("d@example.com");
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.unshift((await market.apiKeys.create(actor, {})).apiKey.id);
    const first = await market.apiKeys.list(actor, { limit: 2 });
    expect(first.items.map((k) => k.id)).toEqual(ids.slice(0, 2));
    const second = await market.apiKeys.list(actor, { limit: 2, cursor: first.nextCursor ?? undefined });
    expect(second.items.map((k) => k.id)).toEqual(ids.slice(2, 4));
    const third = await market.apiKeys.list(actor, { limit: 2, cursor: second.nextCursor ?? undefined });
    expect(third.items.map((k) => k.id)).toEqual(ids.slice(4));
    expect(third.nextCursor).toBeNull();
    await expectCode(market.apiKeys.list({ kind: "anonymous" }, {}), "unauthenticated");
  });
});

describe("apiKeys.deactivate", () => {
  it("deactivates the caller's own key, which then stops authenticating", async () => {
    const { deps, market, signUpAndLogIn } = setup();
    const { actor } = await signUpAndLogIn("e@example.com");
    const { apiKey, secret } = await market.apiKeys.create(actor, {});
    await market.apiKeys.deactivate(actor, { id: apiKey.id });
    expect((await deps.repos.apiKeys.findById(apiKey.id))?.isActive).toBe(false);
    await expectCode(market.auth.authenticate({ apiKey: secret }), "api_key_revoked");
    const listed = await market.apiKeys.list(actor, {});
    expect(listed.items).toEqual([expect.objectContaining({ id: apiKey.id, isActive: false })]);
  });

  it("reports another user's key as key_not_found, but an admin may deactivate it", async () => {
    const { deps, market, signUpAndLogIn, logInAdmin } = setup();
    const alice = await signUpAndLogIn("alice@example.com");
    const bob = await signUpAndLogIn("bob@example.com");
    const { apiKey, secret } = await market.apiKeys.create(alice.actor, {});

    await expectCode(market.apiKeys.deactivate(bob.actor, { id: apiKey.id }), "key_not_found");
    expect((await deps.repos.apiKeys.findById(apiKey.id))?.isActive).toBe(true);

    const admin = (await logInAdmin()).actor;
    await market.apiKeys.deactivate(admin, { id: apiKey.id });
    expect((await deps.repos.apiKeys.findById(apiKey.id))?.isActive).toBe(false);
    await expectCode(market.auth.authenticate({ apiKey: secret }), "api_key_revoked");
  });

  it("refuses unknown ids (404), malformed ids (400) and anonymous callers (401)", async () => {
    const { market, signUpAndLogIn } = setup();
    const { actor } = await signUpAndLogIn("f@example.com");
    const { apiKey } = await market.apiKeys.create(actor, {});
    await expectCode(market.apiKeys.deactivate(actor, { id: crypto.randomUUID() }), "key_not_found");
    await expectInvalidField(
      market.apiKeys.deactivate(actor, { id: "not-a-uuid" }),
      "id",
      "id: must be a UUID",
    );
    await expectCode(market.apiKeys.deactivate({ kind: "anonymous" }, { id: apiKey.id }), "unauthenticated");
  });
});

describe("API key last_used", () => {
  it("is set at first use and then written at most once a minute", async () => {
    const { deps, market, signUpAndLogIn } = setup();
    const { actor } = await signUpAndLogIn("g@example.com");
    const { apiKey, secret } = await market.apiKeys.create(actor, {});
    const lastUsed = async () => (await deps.repos.apiKeys.findById(apiKey.id))?.lastUsed?.getTime() ?? null;
    expect(await lastUsed()).toBeNull();

    deps.clock.advance(5 * SECOND);
    const firstUse = deps.clock.now().getTime();
    await market.auth.authenticate({ apiKey: secret });
    expect(await lastUsed()).toBe(firstUse);

    deps.clock.advance(30 * SECOND);
    await market.auth.authenticate({ apiKey: secret });
    expect(await lastUsed()).toBe(firstUse);

    deps.clock.advance(31 * SECOND);
    await market.auth.authenticate({ apiKey: secret });
    expect(await lastUsed()).toBe(firstUse + 61 * SECOND);
  });

  it("is not touched by a JWT", async () => {
    const { deps, market, signUpAndLogIn } = setup();
    const { actor } = await signUpAndLogIn("h@example.com");
    const { apiKey } = await market.apiKeys.create(actor, {});
    const { token } = await market.auth.logIn({ email: "h@example.com", password: PASSWORD });
    await market.auth.authenticate({ bearer: token });
    expect((await deps.repos.apiKeys.findById(apiKey.id))?.lastUsed).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import { type Actor, isAdmin } from "../../domain/actor.js";
import { SCOPES } from "../../domain/scopes.js";
import { expectCode, expectInvalidField, setup } from "../../testing/use-case-kit.js";

const DAY = 24 * 60 * 60 * 1000;
const LISTING = { title: "Audit", description: "Two weeks", category: "cybersecurity" } as const;

/** A world with a signed-in member, and a key of theirs made with `terms`, as an actor. */
async function keyed(terms: Parameters<ReturnType<typeof setup>["market"]["apiKeys"]["create"]>[1]) {
  const kit = setup();
  const member = await kit.signUpAndLogIn("member@example.com");
  const created = await kit.market.apiKeys.create(member.actor, terms);
  const key = await kit.market.auth.authenticate({ apiKey: created.secret });
  return { ...kit, member, created, key };
}

describe("API key scopes", () => {
  it("a key without scopes does all its user may, as 1.0.2 keys", async () => {
    const { market, key, created } = await keyed({ name: "all" });
    expect(created.apiKey.scopes).toBeNull();
    expect(created.apiKey.prefix).toBe(created.secret.slice(0, 12));
    expect(key).not.toHaveProperty("scopes");
    await expect(market.listings.create(key, LISTING)).resolves.toHaveProperty("id");
    await expect(market.messages.list(key, {})).resolves.toHaveProperty("items");
  });

  it("a key limited to messages:read reads messages and is refused every other scoped call with insufficient_scope", async () => {
    const { market, key, created } = await keyed({ scopes: ["messages:read"] });
    expect(created.apiKey.scopes).toEqual(["messages:read"]);
    await expect(market.messages.list(key, {})).resolves.toHaveProperty("items");
    await expectCode(market.listings.create(key, LISTING), "insufficient_scope");
    await expectCode(market.apiKeys.create(key, {}), "insufficient_scope");
    await expectCode(market.apiKeys.list(key, {}), "insufficient_scope");
    await expectCode(market.users.updateDisplayName(key, { displayName: "x" }), "insufficient_scope");
    // Public reads need no scope.
    await expect(market.listings.search(key, {})).resolves.toHaveProperty("items");
    await expect(market.auth.me(key)).resolves.toHaveProperty("id");
  });

  it("keeps scopes in SCOPES order without repeats, and refuses unknown or empty lists", async () => {
    const { market, member } = await keyed({});
    const made = await market.apiKeys.create(member.actor, {
      scopes: ["messages:write", "listings:write", "messages:write"],
    });
    expect(made.apiKey.scopes).toEqual(["listings:write", "messages:write"]);
    await expectCode(market.apiKeys.create(member.actor, { scopes: [] }), "invalid_input");
    // biome-ignore lint/suspicious/noExplicitAny: a caller's wrong value
    await expectCode(market.apiKeys.create(member.actor, { scopes: ["everything" as any] }), "invalid_input");
  });

  it("a key never grants more than the credential making it", async () => {
    const { market, key } = await keyed({ scopes: ["account:write", "messages:read"] });
    const narrower = await market.apiKeys.create(key, { scopes: ["messages:read"] });
    expect(narrower.apiKey.scopes).toEqual(["messages:read"]);
    const inherited = await market.apiKeys.create(key, {});
    expect(inherited.apiKey.scopes).toEqual(["messages:read", "account:write"]);
    await expectCode(market.apiKeys.create(key, { scopes: ["listings:write"] }), "insufficient_scope");
  });

  it("admin is for admins only, and an admin's key without it acts as a member", async () => {
    const { market, member, logInAdmin } = await keyed({});
    await expectCode(market.apiKeys.create(member.actor, { scopes: ["admin"] }), "insufficient_scope");
    const admin = await logInAdmin();
    const own = await market.listings.create(member.actor, LISTING);
    const asMember = await market.auth.authenticate({
      apiKey: (await market.apiKeys.create(admin.actor, { scopes: ["listings:write"] })).secret,
    });
    expect(isAdmin(asMember)).toBe(false);
    await expectCode(market.listings.delete(asMember, { id: own.id }), "forbidden");
    const asAdmin = await market.auth.authenticate({
      apiKey: (await market.apiKeys.create(admin.actor, { scopes: ["listings:write", "admin"] })).secret,
    });
    expect(isAdmin(asAdmin)).toBe(true);
    await market.listings.delete(asAdmin, { id: own.id });
  });

  it("every scope can be granted by an admin; a member can grant all but admin", async () => {
    const { market, member, logInAdmin } = await keyed({});
    const admin = await logInAdmin();
    expect((await market.apiKeys.create(admin.actor, { scopes: [...SCOPES] })).apiKey.scopes).toEqual([
      ...SCOPES,
    ]);
    const all = SCOPES.filter((s) => s !== "admin");
    expect((await market.apiKeys.create(member.actor, { scopes: all })).apiKey.scopes).toEqual(all);
  });
});

describe("API key expiry", () => {
  it("works until expires_at, then is api_key_expired; a deactivated key is api_key_revoked", async () => {
    const kit = setup();
    const { actor } = await kit.signUpAndLogIn("e@example.com");
    const expiresAt = new Date(kit.deps.clock.now().getTime() + DAY).toISOString();
    const { apiKey, secret } = await kit.market.apiKeys.create(actor, { expiresAt });
    expect(apiKey.expiresAt?.toISOString()).toBe(expiresAt);
    kit.deps.clock.advance(DAY - 1);
    await expect(kit.market.auth.authenticate({ apiKey: secret })).resolves.toMatchObject({ kind: "user" });
    kit.deps.clock.advance(1);
    await expectCode(kit.market.auth.authenticate({ apiKey: secret }), "api_key_expired");
    await kit.market.apiKeys.deactivate(actor, { id: apiKey.id });
    await expectCode(kit.market.auth.authenticate({ apiKey: secret }), "api_key_revoked");
  });

  it("must be in the future and at most 365 days ahead", async () => {
    const kit = setup();
    const { actor } = await kit.signUpAndLogIn("f@example.com");
    const at = (ms: number) => new Date(kit.deps.clock.now().getTime() + ms).toISOString();
    await expectInvalidField(
      kit.market.apiKeys.create(actor, { expiresAt: at(0) }),
      "expiresAt",
      "expiresAt: must be in the future",
    );
    await expectInvalidField(
      kit.market.apiKeys.create(actor, { expiresAt: at(365 * DAY + 1) }),
      "expiresAt",
      "expiresAt: must be at most 365 days ahead",
    );
    await expect(kit.market.apiKeys.create(actor, { expiresAt: at(365 * DAY) })).resolves.toHaveProperty(
      "secret",
    );
  });

  it("a key made by an expiring key expires with it at the latest", async () => {
    const kit = setup();
    const { actor } = await kit.signUpAndLogIn("g@example.com");
    const until = new Date(kit.deps.clock.now().getTime() + 10 * DAY);
    const parent = await kit.market.auth.authenticate({
      apiKey: (await kit.market.apiKeys.create(actor, { expiresAt: until.toISOString() })).secret,
    });
    expect((await kit.market.apiKeys.create(parent, {})).apiKey.expiresAt).toEqual(until);
    await expectInvalidField(
      kit.market.apiKeys.create(parent, { expiresAt: new Date(until.getTime() + 1).toISOString() }),
      "expiresAt",
      "expiresAt: must not be later than the expiry of the key making it",
    );
  });
});

describe("apiKeys.rotate", () => {
  it("makes a key of the same name, scopes and expiry; the old one works through the grace, then expires", async () => {
    const kit = setup();
    const { actor } = await kit.signUpAndLogIn("r@example.com");
    const expiresAt = new Date(kit.deps.clock.now().getTime() + 30 * DAY);
    const old = await kit.market.apiKeys.create(actor, {
      name: "billing bot",
      scopes: ["messages:read"],
      expiresAt: expiresAt.toISOString(),
    });
    const next = await kit.market.apiKeys.rotate(actor, { id: old.apiKey.id, graceSeconds: 3600 });
    expect(next.secret).not.toBe(old.secret);
    expect(next.apiKey).toMatchObject({
      name: "billing bot",
      scopes: ["messages:read"],
      expiresAt,
      isActive: true,
    });
    kit.deps.clock.advance(3600 * 1000 - 1);
    await expect(kit.market.auth.authenticate({ apiKey: old.secret })).resolves.toMatchObject({
      kind: "user",
    });
    kit.deps.clock.advance(1);
    await expectCode(kit.market.auth.authenticate({ apiKey: old.secret }), "api_key_expired");
    await expect(kit.market.auth.authenticate({ apiKey: next.secret })).resolves.toMatchObject({
      kind: "user",
    });
  });

  it("defaults to a day of grace, 0 ends the old key at once, and bounds are checked", async () => {
    const kit = setup();
    const { actor } = await kit.signUpAndLogIn("s@example.com");
    const first = await kit.market.apiKeys.create(actor, {});
    await kit.market.apiKeys.rotate(actor, { id: first.apiKey.id });
    expect((await kit.deps.repos.apiKeys.findById(first.apiKey.id))?.expiresAt).toEqual(
      new Date(kit.deps.clock.now().getTime() + DAY),
    );
    const second = await kit.market.apiKeys.create(actor, {});
    await kit.market.apiKeys.rotate(actor, { id: second.apiKey.id, graceSeconds: 0 });
    await expectCode(kit.market.auth.authenticate({ apiKey: second.secret }), "api_key_expired");
    await expectCode(kit.market.apiKeys.rotate(actor, { id: second.apiKey.id }), "key_not_found");
    await expectCode(
      kit.market.apiKeys.rotate(actor, { id: first.apiKey.id, graceSeconds: -1 }),
      "invalid_input",
    );
    await expectCode(
      kit.market.apiKeys.rotate(actor, { id: first.apiKey.id, graceSeconds: 604_801 }),
      "invalid_input",
    );
  });

  it("only the owner rotates, holding every scope of the key; a deactivated key is not found", async () => {
    const kit = setup();
    const owner = await kit.signUpAndLogIn("o@example.com");
    const other = await kit.signUpAndLogIn("p@example.com");
    const admin = await kit.logInAdmin();
    const all = await kit.market.apiKeys.create(owner.actor, {});
    const limited = await kit.market.apiKeys.create(owner.actor, { scopes: ["account:write"] });
    const limitedActor: Actor = await kit.market.auth.authenticate({ apiKey: limited.secret });
    await expectCode(kit.market.apiKeys.rotate(other.actor, { id: all.apiKey.id }), "key_not_found");
    await expectCode(kit.market.apiKeys.rotate(admin.actor, { id: all.apiKey.id }), "key_not_found");
    await expectCode(kit.market.apiKeys.rotate(limitedActor, { id: all.apiKey.id }), "insufficient_scope");
    await expect(kit.market.apiKeys.rotate(limitedActor, { id: limited.apiKey.id })).resolves.toHaveProperty(
      "secret",
    );
    await kit.market.apiKeys.deactivate(owner.actor, { id: all.apiKey.id });
    await expectCode(kit.market.apiKeys.rotate(owner.actor, { id: all.apiKey.id }), "key_not_found");
  });
});

import { describe, expect, it } from "vitest";
import { ANON, expectCode, expectInvalidField, setup, untyped } from "../../testing/use-case-kit.js";
import { create, DAY, MINUTE } from "./listings-test-support.js";

describe("listings.create", () => {
  it("creates an active listing for the caller with the interface's defaults", async () => {
    const { deps, market, signUpAndLogIn } = setup();
    const { user, actor } = await signUpAndLogIn("a@example.com");
    const listing = await create(market, actor);
    expect(listing).toMatchObject({
      title: "Cloud migration",
      description: "We move your workloads.",
      category: "software-development",
      condition: "good",
      images: [],
      structuredData: { ai_generated: true },
      price: null,
      contactEmail: null,
      expiresAt: null,
      status: "active",
      views: 0,
      userId: user.id,
    });
    expect(listing.createdAt.getTime()).toBe(deps.clock.now().getTime());
    await expect(market.listings.get({ id: listing.id })).resolves.toEqual(listing);
  });

  it("accepts a numeric string price and an API-key actor", async () => {
    const { market, signUpAndLogIn } = setup();
    const { actor } = await signUpAndLogIn("b@example.com");
    const { secret } = await market.apiKeys.create(actor, {});
    const keyActor = await market.auth.authenticate({ apiKey: secret });
    await expect(create(market, keyActor, { price: "1250.50" })).resolves.toMatchObject({ price: 1250.5 });
    await expect(create(market, keyActor, { price: 0 })).resolves.toMatchObject({ price: 0 });
    await expectCode(create(market, keyActor, { price: "12abc" }), "invalid_input");
    await expectCode(create(market, keyActor, { price: -1 }), "invalid_input");
    await expectCode(create(market, keyActor, { price: Number.POSITIVE_INFINITY }), "invalid_input");
  });

  it("ignores unknown fields and fields a caller may not set", async () => {
    const { market, signUpAndLogIn } = setup();
    const { user, actor } = await signUpAndLogIn("c@example.com");
    const other = await signUpAndLogIn("other@example.com");
    const forcedId = crypto.randomUUID();
    const listing = await create(
      market,
      actor,
      untyped({
        id: forcedId,
        userId: other.user.id,
        views: 99,
        status: "paused",
        createdAt: "2000-01-01T00:00:00Z",
        favourite_colour: "blue",
      }),
    );
    expect(listing.id).not.toBe(forcedId);
    expect(listing.userId).toBe(user.id);
    expect(listing.views).toBe(0);
    expect(listing.status).toBe("active");
    expect(listing).not.toHaveProperty("favourite_colour");
  });

  it("keeps given optional fields", async () => {
    const { deps, market, signUpAndLogIn } = setup();
    const { actor } = await signUpAndLogIn("d@example.com");
    const expires = new Date(deps.clock.now().getTime() + DAY);
    const listing = await create(market, actor, {
      condition: "new",
      images: ["https://img.example.com/a.png", "http://img.example.com/b.jpg"],
      structuredData: { skills: ["go", "ts"] },
      contactEmail: "sales@example.com",
      expiresAt: expires.toISOString(),
    });
    expect(listing).toMatchObject({
      condition: "new",
      images: ["https://img.example.com/a.png", "http://img.example.com/b.jpg"],
      structuredData: { skills: ["go", "ts"] },
      contactEmail: "sales@example.com",
      expiresAt: expires,
    });
  });

  it("requires title, description and a known category", async () => {
    const { market, signUpAndLogIn } = setup();
    const { actor } = await signUpAndLogIn("e@example.com");
    await expectCode(
      market.listings.create(actor, untyped({ description: "d", category: "cybersecurity" })),
      "invalid_input",
    );
    await expectCode(
      market.listings.create(actor, untyped({ title: "t", category: "cybersecurity" })),
      "invalid_input",
    );
    await expectCode(
      market.listings.create(actor, untyped({ title: "t", description: "d" })),
      "invalid_input",
    );
    await expectCode(create(market, actor, untyped({ category: "plumbing" })), "invalid_input");
    await expectCode(create(market, actor, untyped({ category: "all" })), "invalid_input");
    await expectCode(create(market, actor, { title: "" }), "invalid_input");
    await expectCode(create(market, actor, { description: "" }), "invalid_input");
    await expectCode(market.listings.create(actor, untyped(undefined)), "invalid_input");
  });

  it("enforces the field bounds", async () => {
    const { deps, market, signUpAndLogIn } = setup({ slots: { personal: 100, business: 100, admin: 100 } });
    const { actor } = await signUpAndLogIn("f@example.com");
    await expect(create(market, actor, { title: "t".repeat(200) })).resolves.toHaveProperty("id");
    await expectCode(create(market, actor, { title: "t".repeat(201) }), "invalid_input");
    await expect(create(market, actor, { description: "d".repeat(20_000) })).resolves.toHaveProperty("id");
    await expectCode(create(market, actor, { description: "d".repeat(20_001) }), "invalid_input");
    await expectCode(create(market, actor, { condition: "c".repeat(51) }), "invalid_input");

    const urls = (n: number) => Array.from({ length: n }, (_, i) => `https://img.example.com/${i}.png`);
    await expect(create(market, actor, { images: urls(20) })).resolves.toHaveProperty("id");
    await expectCode(create(market, actor, { images: urls(21) }), "invalid_input");
    await expectCode(create(market, actor, { images: ["ftp://img.example.com/a.png"] }), "invalid_input");
    await expectCode(create(market, actor, { images: ["javascript:alert(1)"] }), "invalid_input");
    await expectCode(
      create(market, actor, untyped({ images: "https://img.example.com/a.png" })),
      "invalid_input",
    );

    // 16 KiB once serialised: {"k":"..."} adds 8 bytes around the string.
    await expect(
      create(market, actor, { structuredData: { k: "x".repeat(16 * 1024 - 8) } }),
    ).resolves.toHaveProperty("id");
    await expectCode(
      create(market, actor, { structuredData: { k: "x".repeat(16 * 1024) } }),
      "invalid_input",
    );
    await expectCode(create(market, actor, untyped({ structuredData: "text" })), "invalid_input");

    await expectCode(create(market, actor, { contactEmail: "not-an-email" }), "invalid_input");
    await expectCode(create(market, actor, { expiresAt: "next tuesday" }), "invalid_input");
    await expectCode(create(market, actor, { expiresAt: "2030-13-45" }), "invalid_input");
    const past = new Date(deps.clock.now().getTime() - MINUTE).toISOString();
    await expectInvalidField(
      create(market, actor, { expiresAt: past }),
      "expiresAt",
      "expiresAt: must be in the future",
    );
    await expectInvalidField(
      create(market, actor, { expiresAt: deps.clock.now().toISOString() }),
      "expiresAt",
    );
  });

  it("refuses a structuredData that is an array, not a JSON object", async () => {
    const { market, signUpAndLogIn } = setup();
    const { actor } = await signUpAndLogIn("g@example.com");
    await expectCode(
      create(market, actor, untyped({ structuredData: ["not", "an", "object"] })),
      "invalid_input",
    );
    const listing = await create(market, actor);
    await expectCode(
      market.listings.update(actor, untyped({ id: listing.id, structuredData: [1, 2] })),
      "invalid_input",
    );
  });

  it("requires a signed-in caller", async () => {
    const { market } = setup();
    await expectCode(create(market, ANON), "unauthenticated");
  });
});

import type { Actor, ErrorCode, SendMessageInput, Settings } from "@psm/core";
import { describe, expect, it } from "vitest";
import {
  ANON,
  collectPages,
  expectCode,
  expectInvalidField,
  setup,
  untyped,
} from "../../testing/use-case-kit.js";

/** An author with a listing, a buyer and a bystander. */
async function scene(settings: Partial<Settings> = {}) {
  const kit = setup(settings);
  const author = await kit.signUpAndLogIn("author@example.com");
  const buyer = await kit.signUpAndLogIn("buyer@example.com");
  const bystander = await kit.signUpAndLogIn("bystander@example.com");
  const listing = await kit.market.listings.create(author.actor, {
    title: "Data audit",
    description: "Two weeks.",
    category: "data-analytics",
  });
  /** A message about the listing to its author, the shape most cases send. */
  const toAuthor = (content: string) => ({ listingId: listing.id, receiverId: author.user.id, content });
  return { ...kit, author, buyer, bystander, listing, toAuthor };
}

type Scene = Awaited<ReturnType<typeof scene>>;

describe("messages.send (strict)", () => {
  it("sends as the caller by default, to the listing's author", async () => {
    const { deps, market, author, buyer, listing, toAuthor } = await scene();
    const message = await market.messages.send(buyer.actor, toAuthor("Is March free?"));
    expect(message).toMatchObject({
      listingId: listing.id,
      senderId: buyer.user.id,
      receiverId: author.user.id,
      content: "Is March free?",
      isAgent: false,
    });
    expect(message.createdAt.getTime()).toBe(deps.clock.now().getTime());
  });

  it("lets the author reply, and accepts an explicit senderId equal to the caller", async () => {
    const { market, author, buyer, listing } = await scene();
    const reply = await market.messages.send(author.actor, {
      listingId: listing.id,
      senderId: author.user.id,
      receiverId: buyer.user.id,
      content: "Yes",
    });
    expect(reply).toMatchObject({ senderId: author.user.id, receiverId: buyer.user.id });
  });

  /** Each case: the sends the scene's parties may not make, and the code each is refused with. */
  const refusals: [string, (s: Scene) => [Actor, SendMessageInput, ErrorCode][]][] = [
    [
      "requires a signed-in caller",
      ({ buyer, toAuthor }) => [[ANON, { ...toAuthor("hi"), senderId: buyer.user.id }, "unauthenticated"]],
    ],
    [
      "forbids sending as someone else",
      ({ buyer, bystander, toAuthor }) => [
        [bystander.actor, { ...toAuthor("spoofed"), senderId: buyer.user.id }, "forbidden"],
      ],
    ],
    [
      "reports an unknown listing or receiver as not found",
      ({ buyer, toAuthor }) => [
        [buyer.actor, { ...toAuthor("hi"), listingId: crypto.randomUUID() }, "listing_not_found"],
        [buyer.actor, { ...toAuthor("hi"), receiverId: crypto.randomUUID() }, "user_not_found"],
      ],
    ],
    [
      "forbids a message where neither party is the listing's author",
      ({ buyer, bystander, toAuthor }) => [
        [buyer.actor, { ...toAuthor("psst"), receiverId: bystander.user.id }, "forbidden"],
      ],
    ],
  ];
  it.each(refusals)("%s", async (_, sends) => {
    const s = await scene();
    for (const [actor, message, code] of sends(s)) {
      await expectCode(s.market.messages.send(actor, message), code);
    }
  });

  it("defaults isAgent to true for an API-key caller and false for a JWT", async () => {
    const { market, buyer, toAuthor } = await scene();
    const { secret } = await market.apiKeys.create(buyer.actor, {});
    const agent = await market.auth.authenticate({ apiKey: secret });
    const base = toAuthor("hello");
    await expect(market.messages.send(agent, base)).resolves.toMatchObject({
      isAgent: true,
      senderId: buyer.user.id,
    });
    await expect(market.messages.send(agent, { ...base, isAgent: false })).resolves.toMatchObject({
      isAgent: false,
    });
    await expect(market.messages.send(buyer.actor, base)).resolves.toMatchObject({ isAgent: false });
    await expect(market.messages.send(buyer.actor, { ...base, isAgent: true })).resolves.toMatchObject({
      isAgent: true,
    });
  });

  it("validates the body", async () => {
    const { market, buyer, listing, toAuthor } = await scene();
    const base = toAuthor("hello");
    await expectCode(market.messages.send(buyer.actor, { ...base, content: "" }), "invalid_input");
    await expectCode(
      market.messages.send(buyer.actor, { ...base, content: "x".repeat(5001) }),
      "invalid_input",
    );
    await expectInvalidField(
      market.messages.send(buyer.actor, { ...base, listingId: "nope" }),
      "listingId",
      "listingId: must be a UUID",
    );
    await expectInvalidField(
      market.messages.send(buyer.actor, untyped({ listingId: listing.id, content: "x" })),
      "receiverId",
      "receiverId: is required",
    );
    await expectInvalidField(
      market.messages.send(buyer.actor, { ...base, receiverId: buyer.user.id }),
      "receiverId",
      "receiverId: must differ from the sender",
    );
    await expectInvalidField(
      market.messages.send(buyer.actor, untyped({ ...base, isAgent: "yes" })),
      "isAgent",
      "isAgent: must be a boolean",
    );
    await expect(
      market.messages.send(buyer.actor, { ...base, content: "x".repeat(5000) }),
    ).resolves.toHaveProperty("id");
  });
});

describe("messages.list (strict)", () => {
  it("lists the caller's received messages by default and sent ones on request", async () => {
    const { market, author, buyer, toAuthor } = await scene();
    const sent = await market.messages.send(buyer.actor, toAuthor("one"));
    const inbox = await market.messages.list(author.actor, {});
    expect(inbox.type).toBe("received");
    expect(inbox.items.map((m) => m.id)).toEqual([sent.id]);
    expect(inbox.nextCursor).toBeNull();

    const outbox = await market.messages.list(buyer.actor, { type: "sent" });
    expect(outbox.type).toBe("sent");
    expect(outbox.items.map((m) => m.id)).toEqual([sent.id]);
    expect((await market.messages.list(buyer.actor, {})).items).toEqual([]);
    expect((await market.messages.list(author.actor, { type: "sent" })).items).toEqual([]);
    await expectInvalidField(market.messages.list(author.actor, untyped({ type: "spam" })), "type");
  });

  it("accepts the caller's own userId, forbids another's, and lets an admin read anyone's", async () => {
    const { market, logInAdmin, author, buyer, toAuthor } = await scene();
    const sent = await market.messages.send(buyer.actor, toAuthor("one"));
    const own = await market.messages.list(author.actor, { userId: author.user.id });
    expect(own.items.map((m) => m.id)).toEqual([sent.id]);
    await expectCode(market.messages.list(buyer.actor, { userId: author.user.id }), "forbidden");
    const admin = (await logInAdmin()).actor;
    const read = await market.messages.list(admin, { userId: author.user.id });
    expect(read.items.map((m) => m.id)).toEqual([sent.id]);
  });

  it("requires a signed-in caller", async () => {
    const { market, author } = await scene();
    await expectCode(market.messages.list(ANON, { userId: author.user.id }), "unauthenticated");
    await expectCode(market.messages.list(ANON, {}), "unauthenticated");
  });

  it("lists newest first and pages with a cursor", async () => {
    const { deps, market, author, buyer, toAuthor } = await scene();
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      deps.clock.advance(1000);
      const m = await market.messages.send(buyer.actor, toAuthor(`message ${i}`));
      ids.unshift(m.id);
    }
    const { seen, pages } = await collectPages(
      (cursor) => market.messages.list(author.actor, { limit: 3, ...cursor }),
      10,
    );
    expect(pages).toBe(3);
    expect(seen).toEqual(ids);
    await expectCode(market.messages.list(author.actor, { cursor: "garbage" }), "invalid_input");
    await expectCode(market.messages.list(author.actor, { limit: 0 }), "invalid_input");
  });
});

describe("messages in legacy mode", () => {
  it("lists by userId for an anonymous caller and requires userId then", async () => {
    const { market, author, buyer, toAuthor } = await scene({ securityMode: "legacy" });
    const sent = await market.messages.send(buyer.actor, toAuthor("one"));
    const page = await market.messages.list(ANON, { userId: author.user.id });
    expect(page.items.map((m) => m.id)).toEqual([sent.id]);
    await expectInvalidField(market.messages.list(ANON, {}), "userId", "userId: is required");
    // Any signed-in caller may read anyone's, as 1.0.2 documents.
    const other = await market.messages.list(buyer.actor, { userId: author.user.id });
    expect(other.items.map((m) => m.id)).toEqual([sent.id]);
  });

  it("lets an anonymous caller send with a senderId, and requires senderId then", async () => {
    const { market, author, buyer, bystander, listing, toAuthor } = await scene({ securityMode: "legacy" });
    const message = await market.messages.send(ANON, {
      ...toAuthor("anonymous hello"),
      senderId: buyer.user.id,
    });
    expect(message).toMatchObject({ senderId: buyer.user.id, receiverId: author.user.id, isAgent: false });
    await expectInvalidField(market.messages.send(ANON, toAuthor("x")), "senderId", "senderId: is required");
    await expectCode(
      market.messages.send(ANON, { ...toAuthor("x"), senderId: crypto.randomUUID() }),
      "user_not_found",
    );
    // Legacy sends as 1.0.2 did: the parties need not include the author.
    await expect(
      market.messages.send(ANON, {
        listingId: listing.id,
        senderId: buyer.user.id,
        receiverId: bystander.user.id,
        content: "x",
      }),
    ).resolves.toHaveProperty("id");
  });
});

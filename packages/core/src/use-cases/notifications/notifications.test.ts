import { describe, expect, it } from "vitest";
import { MESSAGE_MAIL_INTERVAL_MS } from "../../domain/notification.js";
import { createTestDeps } from "../../testing/fakes/deps.js";
import { expectCode, setupWith } from "../../testing/use-case-kit.js";

const LISTING = {
  title: "Penetration test <b>now</b>",
  description: "Two weeks",
  category: "cybersecurity",
} as const;

async function world(options: { proven?: boolean } = {}) {
  const kit = setupWith(createTestDeps());
  const seller = await kit.signUpAndLogIn("seller@example.com");
  const buyer = await kit.signUpAndLogIn("buyer@example.com");
  if (options.proven ?? true)
    await kit.deps.repos.users.markEmailVerified(seller.user.id, kit.deps.clock.now());
  const listing = await kit.market.listings.create(seller.actor, LISTING);
  const write = (content: string) =>
    kit.market.messages.send(buyer.actor, { listingId: listing.id, receiverId: seller.user.id, content });
  const round = async () => {
    await kit.market.mail.dispatchDue();
    return kit.deps.mailer.ofKind("message_received");
  };
  return { ...kit, seller, buyer, listing, write, round };
}

describe("notification mail: a message received", () => {
  it("mails a proven receiver who names the listing, the sender, the start of the message and the inbox", async () => {
    const { write, round, buyer, market, seller } = await world();
    await market.users.updateDisplayName(buyer.actor, { displayName: "Bea Buyer" });
    await write(`${"x".repeat(250)}`);
    const [mail, ...more] = await round();
    expect(more).toEqual([]);
    expect(mail).toMatchObject({
      to: "seller@example.com",
      senderName: "Bea Buyer",
      listingTitle: LISTING.title,
      preview: `${"x".repeat(200)}…`,
      inboxUrl: "http://localhost:3000/inbox",
    });
    expect(mail!.unsubscribeUrl).toMatch(/^http:\/\/localhost:3000\/unsubscribe\?token=/);
    expect(mail!.unsubscribeUrl).toContain(seller.user.id);
  });

  it("sends one mail per conversation in 15 minutes, then one telling of the newest message", async () => {
    const { write, round, deps } = await world();
    await write("First");
    expect((await round()).map((m) => m.preview)).toEqual(["First"]);
    await write("Second");
    await write("Third");
    expect(await round()).toHaveLength(1);
    deps.clock.advance(MESSAGE_MAIL_INTERVAL_MS);
    expect((await round()).map((m) => m.preview)).toEqual(["First", "Third"]);
  });

  it("sends nothing to an address never proven, nor to a user who turned message mail off", async () => {
    const unproven = await world({ proven: false });
    await unproven.write("Hello");
    expect(await unproven.round()).toEqual([]);

    const off = await world();
    await off.market.notifications.update(off.seller.actor, { messageMail: "off" });
    await off.write("Hello");
    expect(await off.round()).toEqual([]);
  });

  it("queues nothing from the request itself: the mail round reads the event log", async () => {
    const { write, deps } = await world();
    await write("Hello");
    expect(
      await deps.repos.mailQueue.countSince(
        (await deps.repos.users.findByEmail("seller@example.com"))!.id,
        "message_received",
        new Date(0),
      ),
    ).toBe(0);
  });
});

describe("notification settings and one-click unsubscribe", () => {
  it("reads the defaults, changes one setting, keeps the other", async () => {
    const { market, seller } = await world();
    expect(await market.notifications.get(seller.actor)).toEqual({
      messageMail: "instant",
      savedSearchMail: "daily",
    });
    expect(await market.notifications.update(seller.actor, { savedSearchMail: "off" })).toEqual({
      messageMail: "instant",
      savedSearchMail: "off",
    });
  });

  it("the mailed link turns message mail off without a login, twice without harm, and names only its kind", async () => {
    const { market, seller, write, round } = await world();
    await write("Hello");
    const [mail] = await round();
    const token = new URL(mail!.unsubscribeUrl).searchParams.get("token")!;
    expect(await market.notifications.checkUnsubscribe({ token })).toEqual({ kind: "message_mail" });
    expect(await market.notifications.unsubscribe({ token })).toEqual({ kind: "message_mail" });
    expect(await market.notifications.unsubscribe({ token })).toEqual({ kind: "message_mail" });
    expect(await market.notifications.get(seller.actor)).toEqual({
      messageMail: "off",
      savedSearchMail: "daily",
    });
    const [userId, , signature] = token.split(".");
    await expectCode(
      market.notifications.unsubscribe({ token: `${userId}.saved_search_mail.${signature}` }),
      "unsubscribe_link_invalid",
    );
  });

  it("refuses a forged or mangled link", async () => {
    const { market, seller } = await world();
    for (const token of [
      `${seller.user.id}.message_mail.AAAA`,
      `${seller.user.id}.message_mail`,
      "not-a-token",
      `${seller.user.id}.everything.sig`,
    ]) {
      await expectCode(market.notifications.unsubscribe({ token }), "unsubscribe_link_invalid");
    }
    expect(await market.notifications.get(seller.actor)).toEqual({
      messageMail: "instant",
      savedSearchMail: "daily",
    });
  });
});

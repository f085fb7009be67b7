import { createMarketplace } from "@psm/core";
import { createTestDeps } from "@psm/core/testing";
import { afterAll, expect, it } from "vitest";
import { openMigrated, removeTempDbs } from "./test-support/temp-db.js";

const PASSWORD = "secret-password";
/** core's MESSAGE_MAIL_INTERVAL_MS (not exported from its index). */
const MESSAGE_MAIL_INTERVAL_MS = 15 * 60_000;

afterAll(removeTempDbs);

// Core's notifier and mail rounds on this storage: one mail per conversation per 15 minutes,
// telling of its newest message; a one-click unsubscribe stops the next.
it("mails each conversation once a window, with its newest message, until the receiver unsubscribes", async () => {
  const storage = await openMigrated();
  try {
    const deps = createTestDeps({ repos: storage.repositories });
    const market = createMarketplace(deps);
    const actorOf = async (email: string) => {
      const user = await market.auth.signUp({ email, password: PASSWORD });
      const { token } = await market.auth.logIn({ email, password: PASSWORD });
      return { user, actor: await market.auth.authenticate({ bearer: token }) };
    };
    const seller = await actorOf("seller@example.com");
    const buyers = [await actorOf("buyer-1@example.com"), await actorOf("buyer-2@example.com")];
    await deps.repos.users.markEmailVerified(seller.user.id, deps.clock.now());
    const listing = await market.listings.create(seller.actor, {
      title: "Penetration test",
      description: "Two weeks",
      category: "cybersecurity",
    });
    const write = (buyer: number, content: string) =>
      market.messages.send(buyers[buyer]!.actor, {
        listingId: listing.id,
        receiverId: seller.user.id,
        content,
      });
    const round = async () => {
      await market.mail.dispatchDue();
      return deps.mailer.ofKind("message_received").map((mail) => mail.preview);
    };

    await write(0, "First");
    await write(0, "Second");
    await write(1, "Other");
    expect((await round()).sort()).toEqual(["Other", "Second"]);
    await write(0, "Third");
    expect(await round()).toHaveLength(2);
    deps.clock.advance(MESSAGE_MAIL_INTERVAL_MS);
    const mails = await round();
    expect(mails.at(-1)).toBe("Third");
    const link = deps.mailer.ofKind("message_received").at(-1)!.unsubscribeUrl;
    const token = new URL(link).searchParams.get("token")!;
    await market.notifications.unsubscribe({ token });
    deps.clock.advance(MESSAGE_MAIL_INTERVAL_MS);
    await write(0, "Fourth");
    expect(await round()).toHaveLength(3);
    expect(await market.notifications.get(seller.actor)).toEqual({
      messageMail: "off",
      savedSearchMail: "daily",
    });
  } finally {
    await storage.close();
  }
});

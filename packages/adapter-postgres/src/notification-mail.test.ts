import { createMarketplace, webCryptoRandom } from "@psm/core";
import { createTestClock, createTestDeps } from "@psm/core/testing";
import { expect, it } from "vitest";
import { describePostgres } from "../test/hooks.js";

const PASSWORD = "secret-password";
/** core's MESSAGE_MAIL_INTERVAL_MS (not exported from its index). */
const MESSAGE_MAIL_INTERVAL_MS = 15 * 60_000;

// Core's notifier and mail rounds on this storage, run by three processes at once: one mail per
// conversation per 15 minutes, telling of its newest message, whichever process sends it.
describePostgres("postgres notification mail from several processes", (ctx) => {
  it("mails each conversation once a window, with its newest message, however many rounds race", async () => {
    const clock = createTestClock();
    const deps = Array.from({ length: 3 }, () =>
      createTestDeps({ repos: ctx.storage(4).repositories, clock, random: webCryptoRandom }),
    );
    const markets = deps.map((d) => createMarketplace(d));
    const [market] = markets;
    const actorOf = async (email: string) => {
      const user = await market!.auth.signUp({ email, password: PASSWORD });
      const { token } = await market!.auth.logIn({ email, password: PASSWORD });
      return { user, actor: await market!.auth.authenticate({ bearer: token }) };
    };
    const seller = await actorOf("seller@example.com");
    const buyers = [await actorOf("buyer-1@example.com"), await actorOf("buyer-2@example.com")];
    await deps[0]!.repos.users.markEmailVerified(seller.user.id, clock.now());
    const listing = await market!.listings.create(seller.actor, {
      title: "Penetration test",
      description: "Two weeks",
      category: "cybersecurity",
    });
    const write = (buyer: number, content: string) =>
      markets[buyer % 3]!.messages.send(buyers[buyer]!.actor, {
        listingId: listing.id,
        receiverId: seller.user.id,
        content,
      });
    const rounds = async () => {
      for (let wave = 0; wave < 2; wave++) await Promise.all(markets.map((m) => m.mail.dispatchDue()));
      return deps.flatMap((d) => d.mailer.ofKind("message_received").map((mail) => mail.preview)).sort();
    };

    await write(0, "First");
    await write(0, "Second");
    await write(1, "Other");
    expect(await rounds()).toEqual(["Other", "Second"]);
    await write(0, "Third");
    expect(await rounds()).toEqual(["Other", "Second"]);
    clock.advance(MESSAGE_MAIL_INTERVAL_MS);
    expect(await rounds()).toEqual(["Other", "Second", "Third"]);
  });
});

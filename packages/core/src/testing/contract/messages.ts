import { describe, expect, it } from "vitest";
import { buildMessage } from "../builders.js";
import {
  at,
  type ContractContext,
  ids,
  listingOf,
  newestFirst,
  seedListings,
  seedUser,
  shuffled,
} from "./context.js";

/** Cases of MessageRepository. */
export function messageCases(ctx: ContractContext): void {
  describe("messages", () => {
    it("round-trips a message into the receiver's received and the sender's sent lists", async () => {
      const repos = ctx.repos();
      const [alice, bob] = [await seedUser(repos), await seedUser(repos)];
      const [listing] = await seedListings(repos, [listingOf(bob, 0)]);
      const message = buildMessage({
        listingId: listing!.id,
        senderId: alice.id,
        receiverId: bob.id,
        content: "Grüße — is this still available? 🙂\nSecond line",
        isAgent: true,
        createdAt: new Date("2026-03-01T12:00:00.321Z"),
      });
      await repos.messages.insert(message);
      expect(await repos.messages.list(bob.id, "received", { limit: 10 })).toEqual([message]);
      expect(await repos.messages.list(alice.id, "sent", { limit: 10 })).toEqual([message]);
      expect(await repos.messages.list(alice.id, "received", { limit: 10 })).toEqual([]);
      expect(await repos.messages.list(bob.id, "sent", { limit: 10 })).toEqual([]);
    });

    it("lists newest first, paged with before and limited", async () => {
      const repos = ctx.repos();
      const [alice, bob, carol] = [await seedUser(repos), await seedUser(repos), await seedUser(repos)];
      const [listing] = await seedListings(repos, [listingOf(bob, 0)]);
      const toBob = Array.from({ length: 5 }, (_, i) =>
        buildMessage({
          listingId: listing!.id,
          senderId: i % 2 ? carol.id : alice.id,
          receiverId: bob.id,
          createdAt: at(i),
        }),
      );
      const toAlice = buildMessage({
        listingId: listing!.id,
        senderId: bob.id,
        receiverId: alice.id,
        createdAt: at(9),
      });
      for (const message of shuffled([...toBob, toAlice])) await repos.messages.insert(message);

      const order = newestFirst(toBob);
      expect(ids(await repos.messages.list(bob.id, "received", { limit: 10 }))).toEqual(order);
      const first = await repos.messages.list(bob.id, "received", { limit: 2 });
      expect(ids(first)).toEqual(order.slice(0, 2));
      const rest = await repos.messages.list(bob.id, "received", { limit: 10, before: first[1]!.id });
      expect(ids(rest)).toEqual(order.slice(2));
      const fromAlice = toBob.filter((message) => message.senderId === alice.id);
      expect(ids(await repos.messages.list(alice.id, "sent", { limit: 10 }))).toEqual(newestFirst(fromAlice));
      expect(ids(await repos.messages.list(bob.id, "sent", { limit: 10 }))).toEqual([toAlice.id]);
    });
  });
}

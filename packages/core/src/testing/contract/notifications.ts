import { describe, expect, it } from "vitest";
import { DEFAULT_NOTIFICATION_SETTINGS } from "../../domain/notification.js";
import { buildMessage, testId } from "../builders.js";
import { at, type ContractContext, MINUTE, seedUser } from "./context.js";

const WINDOW = 15 * MINUTE;

/** Cases of notification settings, coalesced mail and the newest message of a conversation. */
export function notificationCases(ctx: ContractContext): void {
  describe("notifications", () => {
    it("answers the defaults until a user chooses, then what they chose", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      expect(await repos.notifications.get(user.id)).toEqual(DEFAULT_NOTIFICATION_SETTINGS);
      await repos.notifications.set(user.id, { messageMail: "off", savedSearchMail: "instant" });
      expect(await repos.notifications.get(user.id)).toEqual({
        messageMail: "off",
        savedSearchMail: "instant",
      });
      await repos.notifications.set(user.id, { messageMail: "instant", savedSearchMail: "off" });
      expect(await repos.notifications.get(user.id)).toEqual({
        messageMail: "instant",
        savedSearchMail: "off",
      });
    });

    it("refuses settings for an unknown user and forgets a deleted user's", async () => {
      const repos = ctx.repos();
      const unknown = testId(at(1));
      await expect(
        repos.notifications.set(unknown, { messageMail: "off", savedSearchMail: "off" }),
      ).rejects.toMatchObject({ code: "user_not_found" });
      const user = await seedUser(repos);
      await repos.notifications.set(user.id, { messageMail: "off", savedSearchMail: "off" });
      await repos.users.deleteCascade(user.id);
      expect(await repos.notifications.get(user.id)).toEqual(DEFAULT_NOTIFICATION_SETTINGS);
    });

    it("keeps the notifier's cursor: 0 at first, moved within a unit of work, taken back when it throws", async () => {
      const repos = ctx.repos();
      expect(await repos.unitOfWork.run((unit) => unit.notifications.takeCursor())).toBe(0);
      await repos.unitOfWork.run(async (unit) => {
        await unit.notifications.takeCursor();
        await unit.notifications.advanceCursor(12);
      });
      await expect(
        repos.unitOfWork.run(async (unit) => {
          await unit.notifications.takeCursor();
          await unit.notifications.advanceCursor(20);
          throw new Error("boom");
        }),
      ).rejects.toThrow("boom");
      expect(await repos.unitOfWork.run((unit) => unit.notifications.takeCursor())).toBe(12);
    });

    it("coalesces mail about one conversation: none while one is pending, the next one 15 minutes after the last", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const job = (offset: number, ref = "listing/sender") => ({
        id: testId(at(offset)),
        userId: user.id,
        kind: "message_received" as const,
        ref,
        createdAt: at(offset),
      });
      const first = job(0);
      expect(await repos.mailQueue.enqueueCoalesced(first, WINDOW)).toBe(true);
      expect(await repos.mailQueue.findById(first.id)).toMatchObject({
        ref: "listing/sender",
        status: "pending",
        nextAttemptAt: at(0),
      });
      expect(await repos.mailQueue.enqueueCoalesced(job(MINUTE), WINDOW)).toBe(false);
      const other = job(MINUTE, "listing/another");
      expect(await repos.mailQueue.enqueueCoalesced(other, WINDOW)).toBe(true);
      await repos.mailQueue.claimDue(at(2 * MINUTE), 10, MINUTE);
      await repos.mailQueue.markSent(first.id, at(2 * MINUTE));
      const soon = job(3 * MINUTE);
      expect(await repos.mailQueue.enqueueCoalesced(soon, WINDOW)).toBe(true);
      expect((await repos.mailQueue.findById(soon.id))?.nextAttemptAt).toEqual(at(WINDOW));
      expect(await repos.mailQueue.enqueueCoalesced(job(4 * MINUTE), WINDOW)).toBe(false);
    });

    it("finds the newest message one user sent another about one listing", async () => {
      const repos = ctx.repos();
      const receiver = testId(at(0));
      const sender = testId(at(0));
      const listing = testId(at(0));
      const older = buildMessage({
        receiverId: receiver,
        senderId: sender,
        listingId: listing,
        createdAt: at(1),
      });
      const newer = buildMessage({
        receiverId: receiver,
        senderId: sender,
        listingId: listing,
        createdAt: at(2),
      });
      const otherListing = buildMessage({ receiverId: receiver, senderId: sender, createdAt: at(3) });
      const reply = buildMessage({
        receiverId: sender,
        senderId: receiver,
        listingId: listing,
        createdAt: at(4),
      });
      for (const message of [older, newer, otherListing, reply]) await repos.messages.insert(message);
      expect(await repos.messages.latestBetween(receiver, sender, listing)).toEqual(newer);
      expect(await repos.messages.latestBetween(sender, receiver, testId(at(9)))).toBeNull();
    });
  });
}

import { describe, expect, it } from "vitest";
import type { EventType, NewEvent } from "../../domain/event.js";
import type { User } from "../../domain/user.js";
import { buildMessage } from "../builders.js";
import { at, type ContractContext, listingOf, NO_LIMIT, seedListings, seedUser } from "./context.js";

let serial = 0;

/** A new event for `user`, of `type`, about `subject`, at T0 + offset. */
function eventFor(user: User, type: EventType, subject: string, offsetMs = 0): NewEvent {
  serial++;
  return {
    id: `evt_01JTEST${String(serial).padStart(19, "0")}`,
    type,
    userId: user.id,
    occurredAt: at(offsetMs),
    data: { listing_id: subject },
  };
}

const ALL = { after: 0, limit: 100 };

/** Cases of the event log: events go with the change they tell of, and read in seq order. */
export function eventCases(ctx: ContractContext): void {
  describe("events", () => {
    it("a listing inserted, updated and deleted writes its events with it, each with a greater seq", async () => {
      const repos = ctx.repos();
      const owner = await seedUser(repos);
      const listing = listingOf(owner, 0);
      const created = eventFor(owner, "listing.created", listing.id, 123);
      expect(await repos.listings.insertWithinSlots(listing, NO_LIMIT, [created])).toBe(true);
      const updated = eventFor(owner, "listing.updated", listing.id, 1);
      expect(
        await repos.listings.update(listing.id, { title: "New title" }, NO_LIMIT, [updated]),
      ).not.toBeNull();
      const deleted = eventFor(owner, "listing.deleted", listing.id, 2);
      expect(await repos.listings.delete(listing.id, [deleted])).toBe(true);

      const events = await repos.events.listFor(owner.id, ALL);
      expect(events.map(({ seq: _, ...event }) => event)).toEqual([created, updated, deleted]);
      const seqs = events.map((event) => event.seq);
      expect(
        seqs.every((seq, i) => Number.isInteger(seq) && seq > 0 && (i === 0 || seq > seqs[i - 1]!)),
      ).toBe(true);
    });

    it("writes nothing when the change does not happen: a full author, an unknown listing, a refused reactivation", async () => {
      const repos = ctx.repos();
      const owner = await seedUser(repos);
      await seedListings(repos, [listingOf(owner, 0)]);
      const full = { maxSlots: 1, now: at(0) };
      const refused = listingOf(owner, 1);
      expect(
        await repos.listings.insertWithinSlots(refused, full, [
          eventFor(owner, "listing.created", refused.id),
        ]),
      ).toBe(false);
      const unknown = "01900000-0000-7000-8000-0000000000dd";
      expect(
        await repos.listings.update(unknown, { title: "x" }, NO_LIMIT, [
          eventFor(owner, "listing.updated", unknown),
        ]),
      ).toBeNull();
      expect(await repos.listings.delete(unknown, [eventFor(owner, "listing.deleted", unknown)])).toBe(false);
      // Paused, then reactivated while the author is full: nothing written, no event.
      const [second] = await seedListings(repos, [listingOf(owner, 2, { status: "paused" })]);
      const reactivate = eventFor(owner, "listing.updated", second!.id);
      expect(await repos.listings.update(second!.id, { status: "active" }, full, [reactivate])).toBe(
        "limit_reached",
      );
      expect(await repos.events.listFor(owner.id, ALL)).toEqual([]);
    });

    it("a message writes the receiver's event with it", async () => {
      const repos = ctx.repos();
      const [alice, bob] = [await seedUser(repos), await seedUser(repos)];
      const [listing] = await seedListings(repos, [listingOf(bob, 0)]);
      const message = buildMessage({
        listingId: listing!.id,
        senderId: alice.id,
        receiverId: bob.id,
        createdAt: at(5),
      });
      const received: NewEvent = {
        ...eventFor(bob, "message.received", listing!.id),
        data: { message_id: message.id, listing_id: listing!.id, sender_id: alice.id },
      };
      await repos.messages.insert(message, [received]);
      expect((await repos.events.listFor(bob.id, ALL)).map(({ seq: _, ...e }) => e)).toEqual([received]);
      expect(await repos.events.listFor(alice.id, ALL)).toEqual([]);
    });

    it("reads one user's events after a seq, of some types, oldest first, at most limit", async () => {
      const repos = ctx.repos();
      const [owner, other] = [await seedUser(repos), await seedUser(repos)];
      const listings = [listingOf(owner, 0), listingOf(other, 1), listingOf(owner, 2), listingOf(owner, 3)];
      for (const listing of listings) {
        const author = listing.userId === owner.id ? owner : other;
        await repos.listings.insertWithinSlots(listing, NO_LIMIT, [
          eventFor(author, "listing.created", listing.id),
        ]);
      }
      await repos.listings.update(listings[0]!.id, { title: "Renamed" }, NO_LIMIT, [
        eventFor(owner, "listing.updated", listings[0]!.id),
      ]);
      const mine = await repos.events.listFor(owner.id, ALL);
      expect(mine.map((e) => e.data.listing_id)).toEqual([
        listings[0]!.id,
        listings[2]!.id,
        listings[3]!.id,
        listings[0]!.id,
      ]);
      expect(mine.every((e) => e.userId === owner.id)).toBe(true);
      expect(await repos.events.listFor(owner.id, { after: mine[1]!.seq, limit: 100 })).toEqual(
        mine.slice(2),
      );
      expect(await repos.events.listFor(owner.id, { after: 0, limit: 2 })).toEqual(mine.slice(0, 2));
      expect(
        await repos.events.listFor(owner.id, { after: 0, limit: 100, types: ["listing.updated"] }),
      ).toEqual([mine[3]]);
      expect(
        await repos.events.listFor(owner.id, {
          after: 0,
          limit: 100,
          types: ["listing.updated", "listing.created"],
        }),
      ).toEqual(mine);
      expect(await repos.events.listFor(owner.id, { after: mine[3]!.seq, limit: 100 })).toEqual([]);
    });

    it("scanAfter answers the wanted types of a window of everyone's events, and where to go on from", async () => {
      const repos = ctx.repos();
      const [one, two] = [await seedUser(repos), await seedUser(repos)];
      const start = (await repos.events.listAfter(0, 1_000_000)).at(-1)?.seq ?? 0;
      const types: EventType[] = [
        "listing.created",
        "listing.deleted",
        "saved_search.matched",
        "listing.updated",
        "saved_search.matched",
        "listing.created",
        "webhook.test",
      ];
      await repos.events.append(types.map((type, i) => eventFor(i % 2 === 0 ? one : two, type, `l${i}`)));
      const all = await repos.events.listAfter(start, 100);
      expect(all.map((e) => e.type)).toEqual(types);
      const wanted: EventType[] = ["listing.created", "listing.updated"];
      const scan = (after: number, window: number, limit: number) =>
        repos.events.scanAfter(after, { types: wanted, window, limit });

      // A window of three holds one wanted event; the reader goes on after the window.
      expect(await scan(start, 3, 10)).toEqual({ events: [all[0]], through: all[2]!.seq, more: true });
      expect(await scan(all[2]!.seq, 3, 10)).toEqual({
        events: [all[3], all[5]],
        through: all[5]!.seq,
        more: true,
      });
      // The last window is short: nothing more, until more is written.
      expect(await scan(all[5]!.seq, 3, 10)).toEqual({ events: [], through: all[6]!.seq, more: false });
      expect(await scan(all[6]!.seq, 3, 10)).toEqual({ events: [], through: null, more: false });
      // At `limit`, the reader goes on after the last event answered, not after the window.
      expect(await scan(start, 100, 2)).toEqual({
        events: [all[0], all[3]],
        through: all[3]!.seq,
        more: true,
      });
      expect(await scan(all[3]!.seq, 100, 2)).toEqual({
        events: [all[5]],
        through: all[6]!.seq,
        more: false,
      });

      // Whatever the window and limit, a reader that goes on from `through` reads each wanted
      // event once, in order, and stops at the end.
      const expected = all.filter((e) => wanted.includes(e.type));
      for (const window of [1, 2, 3, 5]) {
        for (const limit of [1, 2, 4]) {
          const read = [];
          let after = start;
          for (let step = 0; step < 20; step++) {
            const result = await scan(after, window, limit);
            read.push(...result.events);
            if (result.through === null) break;
            after = result.through;
            if (!result.more) break;
          }
          expect({ window, limit, read }).toEqual({ window, limit, read: expected });
          expect(after).toBe(all[6]!.seq);
        }
      }
    });

    it("sweep removes the events that occurred before an instant, and a deleted user's go with them", async () => {
      const repos = ctx.repos();
      const [owner, leaver] = [await seedUser(repos), await seedUser(repos)];
      const [old, recent] = [listingOf(owner, 0), listingOf(owner, 1)];
      await repos.listings.insertWithinSlots(old, NO_LIMIT, [eventFor(owner, "listing.created", old.id, 0)]);
      await repos.listings.insertWithinSlots(recent, NO_LIMIT, [
        eventFor(owner, "listing.created", recent.id, 10_000),
      ]);
      expect(await repos.events.sweep(at(10_000))).toBe(1);
      expect((await repos.events.listFor(owner.id, ALL)).map((e) => e.data.listing_id)).toEqual([recent.id]);
      const gone = listingOf(leaver, 2);
      await repos.listings.insertWithinSlots(gone, NO_LIMIT, [
        eventFor(leaver, "listing.created", gone.id, 20_000),
      ]);
      expect(await repos.users.deleteCascade(leaver.id)).toBe(true);
      expect(await repos.events.listFor(leaver.id, ALL)).toEqual([]);
    });

    it("events written in a unit of work roll back with it", async () => {
      const repos = ctx.repos();
      const owner = await seedUser(repos);
      const listing = listingOf(owner, 0);
      await expect(
        repos.unitOfWork.run(async (tx) => {
          await tx.listings.insertWithinSlots(listing, NO_LIMIT, [
            eventFor(owner, "listing.created", listing.id),
          ]);
          throw new Error("abandoned");
        }),
      ).rejects.toThrow("abandoned");
      expect(await repos.events.listFor(owner.id, ALL)).toEqual([]);
      expect(await repos.listings.findById(listing.id)).toBeNull();
    });
  });
}

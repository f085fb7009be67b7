import { buildListing } from "@psm/core/testing";
import { expect, it } from "vitest";
import { statementsOn } from "../../test/batch-support.js";
import { eventFor, lastSeq, runsOn } from "../../test/event-support.js";
import { describePostgres } from "../../test/hooks.js";
import { insertHelpers, NO_LIMIT, NOW, outcome } from "../../test/insert-support.js";
import { causeCode } from "../../test/sqlstate.js";

describePostgres("postgres listing inserts (group commit): events", (ctx) => {
  const { authors, storedIds } = insertHelpers(ctx);
  const ALL = { after: 0, limit: 100 };

  it("a batch writes its members' events with one counter UPDATE and one INSERT, in arrival order", async () => {
    const [author] = await authors(1);
    const { listings, events } = ctx.storage(2).repositories;
    const raw = ctx.connection();
    const from = await lastSeq(raw);
    const made = Array.from({ length: 40 }, () => buildListing({ userId: author!.id }));
    const created = made.map((listing) =>
      eventFor(author!.id, "listing.created", { listing_id: listing.id }),
    );
    const counted = await statementsOn(
      raw,
      [
        ["insert", "listings"],
        ["insert", "events"],
        ["update", "event_sequence"],
      ],
      async () => {
        const results = await Promise.all(
          made.map((listing, i) => listings.insertWithinSlots(listing, NO_LIMIT, [created[i]!])),
        );
        expect(results).toEqual(made.map(() => true));
      },
    );
    expect(counted).toEqual([1, 1, 1]);
    const seen = await events.listFor(author!.id, ALL);
    expect(seen.map(({ seq: _, ...event }) => event)).toEqual(created);
    expect(
      runsOn(
        from,
        seen.map((event) => event.seq),
      ),
    ).toBe(true);
  });

  it("only the inserted members' events are written: none for a refused or a failed member", async () => {
    const [author] = await authors(1);
    const { listings, events } = ctx.storage(2).repositories;
    const kept = buildListing({ userId: author!.id });
    await listings.insertWithinSlots(kept, NO_LIMIT);
    const fresh = Array.from({ length: 3 }, () => buildListing({ userId: author!.id }));
    const calls = [
      fresh[0]!,
      // A duplicate id: the batch rolls back whole, its members run alone, and this one fails.
      { ...kept, title: "Second take" },
      fresh[1]!,
      // Full: the stored one and the two above.
      fresh[2]!,
    ].map((listing) => ({
      listing,
      event: eventFor(author!.id, "listing.created", { listing_id: listing.id }),
    }));
    const results = await Promise.allSettled(
      calls.map(({ listing, event }, i) =>
        listings.insertWithinSlots(listing, i === 3 ? { maxSlots: 3, now: NOW } : NO_LIMIT, [event]),
      ),
    );
    expect(results.map(outcome)).toEqual([true, "internal_error", true, false]);
    const seen = await events.listFor(author!.id, ALL);
    expect(seen.map((event) => event.id)).toEqual([calls[0]!.event.id, calls[2]!.event.id]);
  });

  it("a member whose event cannot be written (a repeated event id) fails alone; its listing is not stored", async () => {
    const [author] = await authors(1);
    const { listings, events } = ctx.storage(2).repositories;
    const made = Array.from({ length: 3 }, () => buildListing({ userId: author!.id }));
    const first = eventFor(author!.id, "listing.created", { listing_id: made[0]!.id });
    const third = eventFor(author!.id, "listing.created", { listing_id: made[2]!.id });
    const results = await Promise.allSettled([
      listings.insertWithinSlots(made[0]!, NO_LIMIT, [first]),
      listings.insertWithinSlots(made[1]!, NO_LIMIT, [{ ...first, data: { listing_id: made[1]!.id } }]),
      listings.insertWithinSlots(made[2]!, NO_LIMIT, [third]),
    ]);
    expect(results.map(outcome)).toEqual([true, "internal_error", true]);
    expect(results[1]!.status === "rejected" && causeCode(results[1].reason)).toBe("23505");
    expect(await storedIds(made.map((listing) => listing.id))).toEqual([made[0]!.id, made[2]!.id].sort());
    expect((await events.listFor(author!.id, ALL)).map((event) => event.id)).toEqual([first.id, third.id]);
  });
});

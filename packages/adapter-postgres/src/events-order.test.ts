import type { MarketEvent, Repositories } from "@psm/core";
import { buildListing, buildMessage, buildUser } from "@psm/core/testing";
import { expect, it } from "vitest";
import { lockWaiters } from "../test/batch-support.js";
import { eventFor, lastSeq, runsOn } from "../test/event-support.js";
import { describePostgres } from "../test/hooks.js";
import { NO_LIMIT, nextTurn } from "../test/insert-support.js";

/** Writers per round, as the issue asks. */
const WRITERS = 50;

/** What a poller saw: every event once, and each poll's answer. */
interface Polled {
  events: MarketEvent[];
  polls: { after: number; seqs: number[] }[];
}

/**
 * Polls `userId`'s events after `from` as a client would, passing the last seq it saw, until it
 * has `count`; `stop()` says the writers are done, after which a poll bringing nothing ends it.
 */
async function poll(
  repos: Repositories,
  userId: string,
  from: number,
  count: number,
  stop: () => boolean,
): Promise<Polled> {
  const seen: Polled = { events: [], polls: [] };
  let after = from;
  while (seen.events.length < count) {
    const done = stop();
    const page = await repos.events.listFor(userId, { after, limit: 100 });
    seen.polls.push({ after, seqs: page.map((event) => event.seq) });
    seen.events.push(...page);
    after = page.at(-1)?.seq ?? after;
    if (page.length === 0 && done) break;
    await nextTurn();
  }
  return seen;
}

// Two storages on one database are two server processes; a third polls.
describePostgres("postgres event log: seqs visible in commit order", (ctx) => {
  it(`${WRITERS} concurrent writers on two pools, one recipient: the poller sees each seq once, never N+1 before N`, async () => {
    const writers = [ctx.storage(10).repositories, ctx.storage(10).repositories];
    const reader = ctx.storage(2).repositories;
    const [recipient, sender] = [buildUser(), buildUser()];
    await writers[0]!.users.insert(recipient);
    await writers[0]!.users.insert(sender);
    const about = buildListing({ userId: recipient.id });
    await writers[0]!.listings.insertWithinSlots(about, NO_LIMIT);
    const raw = ctx.connection();

    for (let round = 0; round < 3; round++) {
      const from = await lastSeq(raw);
      let finished = false;
      const polling = poll(reader, recipient.id, from, WRITERS, () => finished);
      const written: Promise<string>[] = [];
      for (let i = 0; i < WRITERS; i++) {
        const repos = writers[i % 2]!;
        // Listings through the group commit (several batches per pool), messages one transaction each.
        if (i % 4 < 2) {
          const listing = buildListing({ userId: recipient.id });
          const event = eventFor(recipient.id, "listing.created", { listing_id: listing.id });
          written.push(
            repos.listings
              .insertWithinSlots(listing, NO_LIMIT, [event])
              .then((inserted) => (inserted ? event.id : `refused: ${listing.id}`)),
          );
        } else {
          const message = buildMessage({
            listingId: about.id,
            senderId: sender.id,
            receiverId: recipient.id,
          });
          const event = eventFor(recipient.id, "message.received", {
            message_id: message.id,
            listing_id: about.id,
            sender_id: sender.id,
          });
          written.push(repos.messages.insert(message, [event]).then(() => event.id));
        }
        if (i % 5 === 4) await nextTurn();
      }
      const settled = await Promise.allSettled(written);
      finished = true;
      const seen = await polling;
      expect(settled.filter((result) => result.status === "rejected")).toEqual([]);
      const ids = settled.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));

      const seqs = seen.events.map((event) => event.seq);
      // Every poll answered a contiguous run right after its `after`: it never held N+1 without N.
      expect(seen.polls.filter((p) => !runsOn(p.after, p.seqs))).toEqual([]);
      // Together: from+1..from+50, once each, in order, no gap.
      expect(seqs).toHaveLength(WRITERS);
      expect(runsOn(from, seqs)).toBe(true);
      // Exactly the committed events: each writer's event, and nothing else.
      expect(seen.events.map((event) => event.id).sort()).toEqual([...ids].sort());
      const stored = await raw.sql<
        { seq: string }[]
      >`select seq from events where seq > ${from} order by seq`;
      expect(stored.map((row) => Number(row.seq))).toEqual(seqs);
    }
  });

  it("a writer arriving while another holds the counter waits for its COMMIT, so the later seq is never seen first", async () => {
    const repos = ctx.storage(2).repositories;
    const recipient = buildUser();
    await repos.users.insert(recipient);
    const from = await lastSeq(ctx.connection());
    // The first writer has taken its seq and inserted its event, and has not committed yet.
    const first = eventFor(recipient.id, "webhook.test", {});
    let commit: () => void = () => {};
    const committed = new Promise<void>((resolve) => {
      commit = resolve;
    });
    let taken: () => void = () => {};
    const holding = new Promise<void>((resolve) => {
      taken = resolve;
    });
    const held = ctx.connection().sql.begin(async (tx) => {
      const [row] = await tx<
        { last: string }[]
      >`update event_sequence set last = last + 1 where id = 1 returning last`;
      await tx`insert into events (seq, id, type, user_id, occurred_at, data)
        values (${row!.last}, ${first.id}, ${first.type}, ${recipient.id}, now(), '{}')`;
      taken();
      await committed;
    });
    await holding;
    const message = buildMessage({ senderId: buildUser().id, receiverId: recipient.id });
    const second = eventFor(recipient.id, "message.received", { message_id: message.id });
    let secondDone = false;
    const writing = repos.messages.insert(message, [second]).then(() => {
      secondDone = true;
    });
    await lockWaiters(ctx.connection(), 1);
    expect(secondDone).toBe(false);
    expect(await repos.events.listFor(recipient.id, { after: from, limit: 100 })).toEqual([]);
    commit();
    await held;
    await writing;
    const seen = await repos.events.listFor(recipient.id, { after: from, limit: 100 });
    expect(seen.map((event) => [event.seq, event.id])).toEqual([
      [from + 1, first.id],
      [from + 2, second.id],
    ]);
  });

  it("an event for a user whose row a slot check holds is written without waiting for it", async () => {
    const repos = ctx.storage(2).repositories;
    const author = buildUser();
    await repos.users.insert(author);
    const listing = buildListing({ userId: author.id });
    await repos.listings.insertWithinSlots(listing, NO_LIMIT);
    const message = buildMessage({ listingId: listing.id, senderId: buildUser().id, receiverId: author.id });
    const received = eventFor(author.id, "message.received", { message_id: message.id });
    // The unit holds the author's row as a slot check does (update locks it first) until it ends.
    // The message's event checks that row as a foreign key while holding the counter: were the
    // lock FOR UPDATE it would wait for the unit, and a unit (or batch) waiting for the counter
    // meanwhile would close a deadlock. Here the unit waits for the message, so a wait is a hang.
    await repos.unitOfWork.run(async (tx) => {
      const edit = eventFor(author.id, "listing.updated", { listing_id: listing.id });
      expect(await tx.listings.update(listing.id, { title: "Held" }, NO_LIMIT, [edit])).not.toBeNull();
      await repos.messages.insert(message, [received]);
    });
    const types = (await repos.events.listFor(author.id, { after: 0, limit: 100 })).map(
      (event) => event.type,
    );
    expect(types).toEqual(["message.received", "listing.updated"]);
  });

  it("a unit of work writes its events at its end, a nested unit's with them, a failed nested unit's not at all", async () => {
    const repos = ctx.storage(2).repositories;
    const raw = ctx.connection();
    const author = buildUser();
    await repos.users.insert(author);
    const [kept, dropped] = [buildListing({ userId: author.id }), buildListing({ userId: author.id })];
    const keptEvent = eventFor(author.id, "listing.created", { listing_id: kept.id });
    await repos.unitOfWork.run(async (tx) => {
      await tx.unitOfWork.run(async (inner) => {
        expect(await inner.listings.insertWithinSlots(kept, NO_LIMIT, [keptEvent])).toBe(true);
      });
      const failing = tx.unitOfWork.run(async (inner) => {
        const event = eventFor(author.id, "listing.created", { listing_id: dropped.id });
        await inner.listings.insertWithinSlots(dropped, NO_LIMIT, [event]);
        throw new Error("dropped");
      });
      await expect(failing).rejects.toThrow("dropped");
      // The counter is not held while the unit goes on: another session takes its lock at once.
      await raw.sql`select last from event_sequence where id = 1 for update nowait`;
    });
    const seen = await repos.events.listFor(author.id, { after: 0, limit: 100 });
    expect(seen.map((event) => event.id)).toEqual([keptEvent.id]);
    expect(await repos.listings.findById(dropped.id)).toBeNull();
  });
});

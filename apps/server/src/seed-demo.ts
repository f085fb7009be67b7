import type { Actor, Listing, Marketplace } from "@psm/core";
import {
  DEMO_MEMBERS,
  DEMO_MESSAGES,
  DEMO_PASSWORD,
  type DemoMember,
  type DemoMessage,
} from "./demo-data.js";

/** seed-demo would not fill this database; the message says why, in one line. */
export class DemoRefused extends Error {}

/** What was created. */
export interface DemoReport {
  members: number;
  listings: number;
  categories: number;
  messages: number;
}

/**
 * Fills a fresh marketplace with the demo data set through its use cases (the
 * same rules, events and verification mails as real sign-ups), so what it
 * creates is what the marketplace would have made. Refuses a database that
 * already has an account: demo accounts share one known password, and mixing
 * them into real data could not be undone cleanly.
 */
export async function seedDemo(
  m: Marketplace,
  data: { members: readonly DemoMember[]; messages: readonly DemoMessage[] } = {
    members: DEMO_MEMBERS,
    messages: DEMO_MESSAGES,
  },
): Promise<DemoReport> {
  const existing = await m.profiles.list({ kind: "anonymous" }, { limit: 1 });
  if (existing.items.length > 0) {
    throw new DemoRefused("the database already has accounts: seed-demo fills only a fresh one");
  }
  const actors = new Map<string, Actor>();
  const listings = new Map<string, Listing>();
  for (const member of data.members) {
    const credentials = { email: member.email, password: DEMO_PASSWORD };
    await m.auth.signUp({ ...credentials, displayName: member.displayName });
    const { token } = await m.auth.logIn(credentials);
    const actor = await m.auth.authenticate({ bearer: token });
    actors.set(member.email, actor);
    for (const listing of member.listings) {
      // No structured data: the default marks a listing as drafted by AI, which these are not.
      listings.set(listing.title, await m.listings.create(actor, { ...listing, structuredData: {} }));
    }
  }
  for (const message of data.messages) {
    const sender = actors.get(message.from);
    const listing = listings.get(message.listing);
    if (!sender || !listing)
      throw new Error(`demo message from ${message.from} names no demo member or listing`);
    await m.messages.send(sender, {
      listingId: listing.id,
      receiverId: listing.userId,
      content: message.content,
    });
  }
  return {
    members: data.members.length,
    listings: listings.size,
    categories: new Set([...listings.values()].map((listing) => listing.category)).size,
    messages: data.messages.length,
  };
}

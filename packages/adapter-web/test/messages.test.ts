import { describe, expect, it } from "vitest";
import { type Browser, h1, type Page, webHarness } from "./harness.js";

/** Sends the reply form of the inbox `from`, in the conversation about `listingId` with `receiverId`. */
function reply(browser: Browser, from: Page, listingId: string, receiverId: string, content: string) {
  return browser.submit(from, "/inbox/reply", { listing_id: listingId, receiver_id: receiverId, content });
}

describe("messages", () => {
  it("a second user messages the author; the author reads and replies in the inbox; the thread shows both", async () => {
    const h = webHarness();
    const author = await h.author("author@example.com", {
      title: "Kubernetes audit",
      description: "A review",
    });
    const { listing } = author;
    await h.m.users.updateDisplayName(author.actor, { displayName: "Ada" });
    const buyer = await h.signedIn("buyer@example.com");
    await h.m.users.updateDisplayName(buyer.actor, { displayName: "Bob" });

    const page = await buyer.browser.get(`/listings/${listing.id}`);
    expect(page.html).toContain('<label for="content">Message</label>');
    const sent = await buyer.browser.submit(page, `/listings/${listing.id}/messages`, {
      content: "Hello, can you start in May?",
    });
    expect(sent.status).toBe(303);
    expect(sent.location).toMatch(/^\/inbox#c-[0-9a-f]{16}$/);
    const buyerInbox = await buyer.browser.follow(sent);
    expect(buyerInbox.html).toContain("Message sent.");
    expect(buyerInbox.html).toContain("Hello, can you start in May?");

    const inbox = await author.browser.get("/inbox");
    expect(h1(inbox.html)).toBe("Inbox");
    expect(inbox.html).toContain("Kubernetes audit");
    expect(inbox.html).toContain("with Bob");
    expect(inbox.html).toContain("Hello, can you start in May?");
    const replied = await reply(author.browser, inbox, listing.id, buyer.id, "Yes, from May 4th.");
    expect(replied.status).toBe(303);
    const thread = await author.browser.follow(replied);
    const hello = thread.html.indexOf("Hello, can you start in May?");
    const yes = thread.html.indexOf("Yes, from May 4th.");
    expect(hello).toBeGreaterThan(0);
    expect(yes).toBeGreaterThan(hello);
    // One conversation, not two: the received message and the reply are grouped.
    expect(thread.html.match(/class="conversation"/g)).toHaveLength(1);
    const buyerView = await buyer.browser.get("/inbox");
    expect(buyerView.html).toContain("Yes, from May 4th.");
    expect(buyerView.html).toContain("with Ada");
  });

  it("marks agent-sent messages, keeps a refused reply with its error, and sends a form twice only once", async () => {
    const h = webHarness();
    const author = await h.author();
    const { listing } = author;
    const buyer = await h.signedIn();
    const { secret } = await h.m.apiKeys.create(buyer.actor, { name: "agent" });
    const agent = await h.m.auth.authenticate({ apiKey: secret });
    await h.m.messages.send(agent, {
      listingId: listing.id,
      receiverId: author.id,
      content: "Automated enquiry",
    });

    const inbox = await author.browser.get("/inbox");
    expect(inbox.html).toContain("Sent by an agent");

    const empty = await reply(author.browser, inbox, listing.id, buyer.id, "");
    expect(empty.status).toBe(400);
    expect(empty.html).toContain("Reply must not be empty");
    expect(empty.html).toMatch(/class="error-summary"/);
    expect(empty.html).toMatch(/aria-describedby="reply-c-[0-9a-f]{16}-error"/);

    const [a, b] = await Promise.all([
      reply(author.browser, inbox, listing.id, buyer.id, "Thanks!"),
      reply(author.browser, inbox, listing.id, buyer.id, "Thanks!"),
    ]);
    expect([a.status, b.status]).toEqual([303, 303]);
    const sent = await h.m.messages.list(author.actor, { type: "sent" });
    expect(sent.items.map((msg) => msg.content)).toEqual(["Thanks!"]);
  });

  it("the author sees no message form on their own listing", async () => {
    const h = webHarness();
    const { browser, listing } = await h.author();
    const page = await browser.get(`/listings/${listing.id}`);
    expect(page.html).toContain("This is your listing.");
    expect(page.html).not.toContain(`action="/listings/${listing.id}/messages"`);
  });
});

import { describe, expect, it } from "vitest";
import { h1, webHarness } from "./harness.js";

const LISTING = { title: "Audit", description: "Two weeks", category: "cybersecurity" } as const;

/** A proven seller who was written to, and the unsubscribe link of the mail that told them. */
async function mailedSeller() {
  const h = webHarness();
  const seller = await h.signedIn("seller@example.com");
  await h.deps.repos.users.markEmailVerified(seller.id, h.deps.clock.now());
  const buyer = await h.signedIn("buyer@example.com");
  const listing = await h.m.listings.create(seller.actor, LISTING);
  await h.m.messages.send(buyer.actor, { listingId: listing.id, receiverId: seller.id, content: "Hello" });
  await h.m.mail.dispatchDue();
  const [mail] = h.deps.mailer.ofKind("message_received");
  if (!mail) throw new Error("no message mail was sent");
  const url = new URL(mail.unsubscribeUrl);
  return { h, seller, link: `${url.pathname}${url.search}`, token: url.searchParams.get("token") ?? "" };
}

describe("notification settings page", () => {
  it("shows the defaults, saves a change, and refuses a crafted value beside its field", async () => {
    const h = webHarness();
    const { browser, actor } = await h.signedIn();
    const page = await browser.get("/account/notifications");
    expect(h1(page.html)).toBe("Notification settings");
    expect(page.html).toMatch(/<option value="instant" selected[^>]*>Right away/);
    expect(page.html).toContain("not confirmed yet");
    const saved = await browser.submit(page, "/account/notifications", {
      message_mail: "off",
      saved_search_mail: "instant",
    });
    expect(saved.location).toBe("/account/notifications");
    expect(await h.m.notifications.get(actor)).toEqual({ messageMail: "off", savedSearchMail: "instant" });
    const refused = await browser.submit(page, "/account/notifications", {
      message_mail: "hourly",
      saved_search_mail: "daily",
    });
    expect(refused.status).toBe(400);
    expect(refused.html).toContain("New messages must be one of instant, off");
    expect(await h.m.notifications.get(actor)).toEqual({ messageMail: "off", savedSearchMail: "instant" });
  });

  it("sends an anonymous visitor to log in", async () => {
    const h = webHarness();
    const page = await h.browser().get("/account/notifications");
    expect(page.status).toBe(303);
    expect(page.location).toMatch(/^\/login/);
  });

  it("refuses a form post without the page's token", async () => {
    const h = webHarness();
    const { browser, actor } = await h.signedIn();
    const refused = await browser.post("/account/notifications", "message_mail=off", {
      "content-type": "application/x-www-form-urlencoded",
    });
    expect(refused.status).toBe(403);
    expect((await h.m.notifications.get(actor)).messageMail).toBe("instant");
  });
});

describe("one-click unsubscribe", () => {
  it("the mailed link shows a button and changes nothing until it is pressed", async () => {
    const { h, seller, link, token } = await mailedSeller();
    const page = await h.browser().get(link);
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toContain("no-store");
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    expect(page.html).toContain("Stop mails about new messages?");
    expect((await h.m.notifications.get(seller.actor)).messageMail).toBe("instant");
    expect(page.html).toContain(`name="token" value="${token}"`);
    // The button's form, as a browser sends it: the token in the body.
    const done = await h.browser().post("/unsubscribe", new URLSearchParams({ token }).toString(), {
      "content-type": "application/x-www-form-urlencoded",
    });
    expect(done.status).toBe(200);
    expect(done.html).toContain("You will no longer get mails about new messages");
    expect((await h.m.notifications.get(seller.actor)).messageMail).toBe("off");
  });

  it("a mail client's RFC 8058 POST to the link itself works with no cookie and no form token", async () => {
    const { h, seller, link } = await mailedSeller();
    const posted = await h.browser().post(link, "List-Unsubscribe=One-Click", {
      "content-type": "application/x-www-form-urlencoded",
      origin: "https://mail.example.net",
    });
    expect(posted.status).toBe(200);
    expect((await h.m.notifications.get(seller.actor)).messageMail).toBe("off");
    // Twice is harmless.
    const again = await h.browser().post(link, "List-Unsubscribe=One-Click", {
      "content-type": "application/x-www-form-urlencoded",
    });
    expect(again.status).toBe(200);
  });

  it("a forged or incomplete link is a 400 page that changes nothing", async () => {
    const { h, seller, token } = await mailedSeller();
    const forged = token.replace(/.$/, (last) => (last === "A" ? "B" : "A"));
    for (const path of [
      "/unsubscribe",
      `/unsubscribe?token=${forged}`,
      "/unsubscribe?token=x.message_mail.y",
    ]) {
      const page = await h.browser().get(path);
      expect(page.status, path).toBe(400);
      expect(page.html).toContain("This unsubscribe link is incomplete or not valid");
      const posted = await h.browser().post(path, "List-Unsubscribe=One-Click", {
        "content-type": "application/x-www-form-urlencoded",
      });
      expect(posted.status, path).toBe(400);
    }
    expect((await h.m.notifications.get(seller.actor)).messageMail).toBe("instant");
  });
});

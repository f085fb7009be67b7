import { describe, expect, test } from "vitest";
import { signUpAndLogIn } from "../support/accounts.js";
import { useShared } from "../support/harness.js";
import { call, expectStatus, str } from "../support/http.js";
import { PUBLIC_URL, startMailServer } from "../support/mail-server.js";
import type { ParsedMail, SmtpReceiver } from "../support/smtp-receiver.js";
import { waitFor } from "../support/wait.js";

// Notification mail end to end: the compiled server, a real SMTP server, a proven receiver. The
// mail names the listing and the sender, quotes the message as text, escapes it in HTML, carries
// RFC 8058 headers, and the one-click POST turns message mail off with no session.

/** Mails whose subject matches, to `address`. */
function mailsTo(smtp: SmtpReceiver, address: string, subject: RegExp): ParsedMail[] {
  return smtp.received
    .filter((m) => m.envelopeTo.includes(address) && subject.test(m.parsed.subject ?? ""))
    .map((m) => m.parsed);
}

/** Proves the address with the link of the sign-up mail. */
async function prove(base: string, smtp: SmtpReceiver, email: string, context: () => string): Promise<void> {
  const [mail] = await waitFor(
    "the verification mail",
    () => {
      const found = mailsTo(smtp, email, /confirm|verify/i);
      return found.length > 0 ? found : undefined;
    },
    { context },
  );
  const token = /verify-email\?token=([A-Za-z0-9_-]+)/.exec(mail?.text ?? "")?.[1];
  expectStatus(await call(base, "POST", "/api/auth/verify-email", { body: { token: str(token) } }), 200);
}

/** The List-Unsubscribe link of a mail as sent, POSTed as a mail client would (to the server itself). */
async function oneClickUnsubscribe(
  base: string,
  smtp: SmtpReceiver,
  mail: ParsedMail | undefined,
): Promise<number> {
  // Read from the message as sent (a parser folds List-* headers into objects of its own).
  const raw = smtp.received.find((m) => m.parsed === mail)?.raw ?? "";
  const link = /^List-Unsubscribe: <(https:\/\/market\.example\/unsubscribe\?token=[^>]+)>/im.exec(
    raw.replace(/\r?\n[ \t]+/g, " "),
  )?.[1];
  expect(link).toBeDefined();
  expect(raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
  // PUBLIC_URL is not this server's address: the path goes to the server itself.
  const path = new URL(str(link)).pathname + new URL(str(link)).search;
  const posted = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "List-Unsubscribe=One-Click",
  });
  return posted.status;
}

describe("notification mail about a message", () => {
  const mailing = useShared((h) => startMailServer(h, { env: { PUBLIC_URL } }));

  test("a proven receiver is mailed once per conversation, and unsubscribes in one click", async () => {
    const { server, smtp, context } = mailing();
    const seller = await signUpAndLogIn(server.url, "seller@example.com", "seller-password");
    await prove(server.url, smtp, seller.email, context);
    const buyer = await signUpAndLogIn(server.url, "buyer@example.com", "buyer-password");
    await call(server.url, "PUT", "/api/users/update", {
      token: buyer.token,
      body: { display_name: "Bea <b>Buyer</b>" },
    });
    const listing = await call(server.url, "POST", "/api/listings", {
      token: seller.token,
      body: { title: "Audit & review", description: "Two weeks", category: "cybersecurity" },
    });
    const listingId = str(listing.body.listing?.id);
    const write = async (content: string) => {
      const sent = await call(server.url, "POST", "/api/messages", {
        token: buyer.token,
        body: { listing_id: listingId, receiver_id: seller.id, content },
      });
      expectStatus(sent, 201);
    };
    await write(`<script>alert("x")</script> ${"z".repeat(300)}`);
    const [mail] = await waitFor(
      "the message mail",
      () => {
        const found = mailsTo(smtp, seller.email, /new message/i);
        return found.length > 0 ? found : undefined;
      },
      { context },
    );
    expect(mail?.subject).toBe("New message from Bea <b>Buyer</b> about “Audit & review”");
    expect(mail?.text).toContain("Bea <b>Buyer</b> wrote to you about “Audit & review”:");
    expect(mail?.text).toContain(`${PUBLIC_URL}/inbox`);
    const html = String(mail?.html);
    expect(html).not.toMatch(/<script|<b>/);
    expect(html).toContain("&lt;script&gt;");
    expect(mail?.text).toContain(`<script>alert("x")</script> ${"z".repeat(172)}…`);

    // A second message within 15 minutes: no second mail. Proven by a reset mail queued after it,
    // which one process sends only once every job due before it went.
    await write("A second note in the same conversation");
    await call(server.url, "POST", "/api/auth/reset-password", { body: { email: seller.email } });
    await waitFor(
      "the sentinel reset mail",
      () => {
        const found = mailsTo(smtp, seller.email, /reset your password/i);
        return found.length > 0 ? found : undefined;
      },
      { context },
    );
    expect(mailsTo(smtp, seller.email, /new message/i)).toHaveLength(1);

    expect(await oneClickUnsubscribe(server.url, smtp, mail)).toBe(200);
    const settings = await call(server.url, "GET", "/api/notifications", { token: seller.token });
    expect(settings.body).toEqual({ message_mail: "off", saved_search_mail: "daily" });
  });
});

describe("notification mail about saved searches", () => {
  const mailing = useShared((h) => startMailServer(h, { env: { PUBLIC_URL } }));

  test("a proven owner is mailed the new matches of a saved search, escaped, and unsubscribes in one click", async () => {
    const { server, smtp, context } = mailing();
    const buyer = await signUpAndLogIn(server.url, "saver@example.com", "saver-password");
    await prove(server.url, smtp, buyer.email, context);
    const seller = await signUpAndLogIn(server.url, "lister@example.com", "lister-password");
    const instant = await call(server.url, "PATCH", "/api/notifications", {
      token: buyer.token,
      body: { saved_search_mail: "instant" },
    });
    expectStatus(instant, 200);
    const saved = await call(server.url, "POST", "/api/saved-searches", {
      token: buyer.token,
      body: { q: "audit", name: "Audits <i>please</i>" },
    });
    expectStatus(saved, 201);
    const listing = await call(server.url, "POST", "/api/listings", {
      token: seller.token,
      body: {
        title: "Audit <script>x</script> & review",
        description: "Two weeks",
        category: "cybersecurity",
      },
    });
    expectStatus(listing, 201);
    const [mail] = await waitFor(
      "the saved search mail",
      () => {
        const found = mailsTo(smtp, buyer.email, /new listing/i);
        return found.length > 0 ? found : undefined;
      },
      { context },
    );
    expect(mail?.subject).toBe("1 new listing matches “Audits <i>please</i>”");
    expect(mail?.text).toContain(
      `Audit <script>x</script> & review:\n${PUBLIC_URL}/listings/${str(listing.body.listing?.id)}`,
    );
    const html = String(mail?.html);
    expect(html).not.toMatch(/<script|<i>/);
    expect(html).toContain("Audit &lt;script&gt;x&lt;/script&gt; &amp; review");

    expect(await oneClickUnsubscribe(server.url, smtp, mail)).toBe(200);
    const settings = await call(server.url, "GET", "/api/notifications", { token: buyer.token });
    expect(settings.body).toEqual({ message_mail: "instant", saved_search_mail: "off" });
  });
});

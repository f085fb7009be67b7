import { describe, expect, test } from "vitest";
import { signUp, updatePassword } from "../support/accounts.js";
import { useHarness, useShared } from "../support/harness.js";
import { call } from "../support/http.js";
import { PUBLIC_URL, startMailServer } from "../support/mail-server.js";
import {
  drainWithSentinel,
  expectResetMail,
  mailsTo,
  requestReset,
  waitForMails,
} from "../support/reset-flow.js";

describe("who gets reset mail, and how much", () => {
  // Each test uses addresses of its own, so they share one server. RATE_LIMIT
  // stays off (server-process's default) so only the per-address limit acts.
  // PUBLIC_URL ends in a slash, which must not double up in the links.
  const mailing = useShared((h) => startMailServer(h, { env: { PUBLIC_URL: `${PUBLIC_URL}/` } }));

  test("known and unknown addresses get the same answer; only the known one gets mail", async () => {
    const { server, smtp, context } = mailing();
    const known = "known@example.com";
    const unknown = "nobody@example.com";
    await signUp(server.url, known, "old-password");

    const answers = [];
    for (const email of [unknown, known, "  NoBody@Example.com "]) {
      const res = await call(server.url, "POST", "/api/auth/reset-password", { body: { email } });
      answers.push({ status: res.status, body: res.body });
    }
    expect(answers).toEqual(Array(3).fill({ status: 200, body: { success: true } }));
    // A malformed address is the one thing told apart.
    expect(
      (await call(server.url, "POST", "/api/auth/reset-password", { body: { email: "x" } })).status,
    ).toBe(400);

    await waitForMails(smtp, known, 1, context);
    await drainWithSentinel(server.url, smtp, context);
    expect(mailsTo(smtp, unknown)).toHaveLength(0);
    expect(mailsTo(smtp, known)).toHaveLength(1);
  });

  test("three mails per address per hour: a 4th request answers 200 and sends nothing", async () => {
    const { server, smtp, context } = mailing();
    const email = "limited@example.com";
    await signUp(server.url, email, "old-password");
    // Case and spaces do not make a new address for the limit.
    for (const variant of [email, "Limited@Example.com", ` ${email}`, "LIMITED@example.com"]) {
      await requestReset(server.url, variant);
    }
    const mails = await waitForMails(smtp, email, 3, context);
    await drainWithSentinel(server.url, smtp, context);
    expect(mailsTo(smtp, email)).toHaveLength(3);

    // Three live tokens; the newest one resets and ends the other two.
    const tokens = mails.map((mail) => expectResetMail(mail, email, PUBLIC_URL).token);
    expect(new Set(tokens).size).toBe(3);
    const [first, second, third] = tokens as [string, string, string];
    const reset = (token: string) => updatePassword(server.url, token, "new-password");
    expect((await reset(third)).status).toBe(200);
    expect((await reset(first)).status).toBe(400);
    expect((await reset(second)).status).toBe(400);
  });

  test("a burst of concurrent requests still queues at most three mails", async () => {
    const { server, smtp, context } = mailing();
    const email = "burst@example.com";
    await signUp(server.url, email, "old-password");
    await Promise.all(Array.from({ length: 20 }, () => requestReset(server.url, email)));
    await waitForMails(smtp, email, 1, context);
    await drainWithSentinel(server.url, smtp, context);
    expect(mailsTo(smtp, email).length).toBeLessThanOrEqual(3);
  });
});

// Kept apart from the tests above, so the 5 per IP per hour limit is the only limit in play.
describe("reset-password with RATE_LIMIT on", () => {
  const h = useHarness();

  test("the 6th request from one IP within the hour is 429, and the first five are 200", async () => {
    const server = await h.server({ dataDir: await h.dataDir(), env: { RATE_LIMIT: "on", PUBLIC_URL } });
    const statuses = [];
    for (let i = 0; i < 6; i++) {
      const res = await call(server.url, "POST", "/api/auth/reset-password", {
        body: { email: `someone${i}@example.com` },
      });
      statuses.push(res.status);
      if (res.status === 429) expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});

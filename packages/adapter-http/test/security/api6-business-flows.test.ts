/**
 * OWASP API6:2023 Unrestricted Access to Sensitive Business Flows. Listing
 * slots under concurrent creates and reactivations, the listing-limit endpoint
 * from another user, and reset-password used to flood a mailbox.
 */
import { describe, expect, test } from "vitest";
import { createRateLimitHooks } from "../../src/index.js";
import { type Session, type Target, target } from "./support/target.js";

const create = (t: Target, s: Session, i: number) =>
  t.request("POST", "/api/listings", {
    token: s.token,
    body: { title: `Offer ${i}`, description: "d", category: "cybersecurity" },
  });

async function activeCount(t: Target, s: Session): Promise<number> {
  const limit = await t.json<{ active_listings_count: number }>(
    await t.request("GET", `/api/profiles/limit?user_id=${s.id}`),
  );
  return limit.active_listings_count;
}

describe("listing slots", () => {
  test("20 concurrent creates against 5 slots: exactly 5 succeed", async () => {
    const t = target();
    const s = await t.signUp();
    const statuses = (await Promise.all(Array.from({ length: 20 }, (_, i) => create(t, s, i)))).map(
      (r) => r.status,
    );
    expect(statuses.filter((x) => x === 201)).toHaveLength(5);
    expect(statuses.filter((x) => x === 403)).toHaveLength(15);
    expect(await activeCount(t, s)).toBe(5);
  });

  test("concurrent reactivations cannot exceed the slots either", async () => {
    const t = target();
    const s = await t.signUp();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await t.listing(s)).id);
    for (const id of ids.slice(0, 3)) {
      await t.request("PATCH", `/api/listings/${id}`, { token: s.token, body: { status: "paused" } });
    }
    await t.listing(s);
    const racing = await Promise.all([
      ...ids
        .slice(0, 3)
        .map((id) =>
          t.request("PATCH", `/api/listings/${id}`, { token: s.token, body: { status: "active" } }),
        ),
      create(t, s, 99),
    ]);
    expect(racing.filter((r) => r.status < 300)).toHaveLength(2);
    expect(await activeCount(t, s)).toBe(5);
  });

  test("POST /api/profiles/limit from another user is 403 (strict) and moves nothing", async () => {
    const t = target();
    const victim = await t.signUp();
    const attacker = await t.signUp();
    await t.listing(victim);
    for (let i = 0; i < 10; i++) {
      const res = await t.request("POST", "/api/profiles/limit", {
        token: attacker.token,
        body: { user_id: victim.id },
      });
      expect(res.status).toBe(403);
    }
    expect(await activeCount(t, victim)).toBe(1);
    expect((await create(t, victim, 2)).status).toBe(201);
  });

  test("legacy mode: the public POST answers but still moves nothing", async () => {
    const t = target({ mode: "legacy" });
    const victim = await t.signUp();
    for (let i = 0; i < 10; i++) {
      const res = await t.request("POST", "/api/profiles/limit", { body: { user_id: victim.id } });
      expect(res.status).toBe(200);
    }
    expect(await activeCount(t, victim)).toBe(0);
    for (let i = 0; i < 5; i++) expect((await create(t, victim, i)).status).toBe(201);
  });
});

describe("password reset", () => {
  test("10 requests for one address from 10 IPs: all 200, at most 3 mails queued", async () => {
    const t = target({ config: { rateLimit: createRateLimitHooks() } });
    const victim = await t.signUp();
    for (let i = 0; i < 10; i++) {
      const res = await t.request("POST", "/api/auth/reset-password", {
        ip: `198.51.100.${i}`,
        body: { email: i % 2 ? victim.email.toUpperCase() : victim.email },
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ success: true });
    }
    // The mail round (after the answers) queues what the requests asked for.
    await t.marketplace.mail.dispatchDue();
    const queued = await t.deps.repos.mailQueue.countSince(victim.id, "password_reset", new Date(0));
    expect(queued).toBe(3);
  });

  test("an unknown address gets the same answer, and nothing is sent", async () => {
    const t = target();
    const res = await t.request("POST", "/api/auth/reset-password", {
      body: { email: "nobody@example.com" },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true });
    await t.marketplace.mail.dispatchDue();
    expect(t.mailer.sent).toEqual([]);
  });
});

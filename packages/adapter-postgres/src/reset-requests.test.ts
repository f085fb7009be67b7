import { createMarketplace, webCryptoRandom } from "@psm/core";
import { buildUser, createTestClock, createTestDeps } from "@psm/core/testing";
import { expect, it } from "vitest";
import { describePostgres } from "../test/hooks.js";

// The contract races takers on one pool; here mail rounds race on several
// pools, as the rounds of several server processes on one database do.
describePostgres("postgres reset requests shared by several processes", (ctx) => {
  it("rounds on three pools turn each request into one job at most, within the per-address limit", async () => {
    const clock = createTestClock();
    const storages = Array.from({ length: 3 }, () => ctx.storage(4));
    const deps = storages.map((storage) =>
      createTestDeps({ repos: storage.repositories, clock, random: webCryptoRandom }),
    );
    const markets = deps.map((d) => createMarketplace(d));
    const users = Array.from({ length: 10 }, () => buildUser({ createdAt: clock.now() }));
    for (const user of users) await storages[0]!.repositories.users.insert(user);
    const busy = users[0]!;

    // Two requests for each user, three more for one (past its 3 per hour), and unknown addresses.
    const emails = [
      ...users.flatMap((user) => [user.email, user.email]),
      busy.email,
      busy.email,
      busy.email,
      ...Array.from({ length: 20 }, (_, i) => `nobody-${i}@example.com`),
    ];
    await Promise.all(emails.map((email, i) => markets[i % 3]!.auth.requestPasswordReset({ email })));

    for (let wave = 0; wave < 3; wave++) await Promise.all(markets.map((m) => m.mail.dispatchDue()));

    const sent = deps.flatMap((d) => d.mailer.ofKind("password_reset").map((mail) => mail.to));
    const perAddress = new Map<string, number>();
    for (const to of sent) perAddress.set(to, (perAddress.get(to) ?? 0) + 1);
    expect(perAddress.get(busy.email)).toBe(3);
    for (const user of users.slice(1)) expect(perAddress.get(user.email), user.email).toBe(2);
    expect(sent).toHaveLength(3 + 2 * 9);
    expect(await storages[1]!.repositories.mailQueue.takeResetRequests(100)).toEqual([]);
  });
});

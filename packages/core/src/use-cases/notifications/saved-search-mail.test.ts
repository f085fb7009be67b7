import { describe, expect, it } from "vitest";
import { newEventId } from "../../domain/event.js";
import { SAVED_SEARCH_DIGEST_INTERVAL_MS, SAVED_SEARCH_MAIL_INTERVAL_MS } from "../../domain/notification.js";
import { UNMAILED_SCAN_EVENTS } from "../../ports/saved-search-repository.js";
import { createTestDeps } from "../../testing/fakes/deps.js";
import { setupWith } from "../../testing/use-case-kit.js";

const LISTING = {
  title: "Security audit <b>now</b>",
  description: "Two weeks",
  category: "cybersecurity",
} as const;

async function world(options: { proven?: boolean; setting?: "instant" | "daily" | "off" } = {}) {
  const kit = setupWith(createTestDeps());
  const buyer = await kit.signUpAndLogIn("buyer@example.com");
  const seller = await kit.signUpAndLogIn("seller@example.com");
  if (options.proven ?? true)
    await kit.deps.repos.users.markEmailVerified(buyer.user.id, kit.deps.clock.now());
  if (options.setting)
    await kit.market.notifications.update(buyer.actor, { savedSearchMail: options.setting });
  const list = (title: string) => kit.market.listings.create(seller.actor, { ...LISTING, title });
  const round = async () => {
    // As the matcher does: round after round while the log holds more.
    while ((await kit.market.savedSearches.match()).more);
    await kit.market.mail.dispatchDue();
    return kit.deps.mailer.ofKind("saved_search_matched");
  };
  return { ...kit, buyer, seller, list, round };
}

describe("notification mail: saved searches", () => {
  it("instant: one mail per saved search per hour, naming the new matches", async () => {
    const { market, buyer, list, round, deps } = await world({ setting: "instant" });
    const audits = await market.savedSearches.create(buyer.actor, { q: "audit", name: "Audits" });
    const first = await list("Security audit <b>now</b>");
    const [mail, ...none] = await round();
    expect(none).toEqual([]);
    expect(mail).toMatchObject({
      to: "buyer@example.com",
      digest: false,
      searches: [
        {
          name: "Audits",
          listings: [{ title: first.title, url: `http://localhost:3000/listings/${first.id}` }],
        },
      ],
      more: 0,
      manageUrl: "http://localhost:3000/account/saved-searches",
    });
    expect(mail!.unsubscribeUrl).toContain("saved_search_mail");
    await list("Code audit");
    await list("Cloud audit");
    expect(await round()).toHaveLength(1);
    deps.clock.advance(SAVED_SEARCH_MAIL_INTERVAL_MS);
    const later = (await round()).at(-1);
    expect(later?.searches.map((s) => s.listings.map((l) => l.title))).toEqual([
      ["Code audit", "Cloud audit"],
    ]);
    expect(audits.id).toBeTruthy();
  });

  it("a busy log before a match delays nothing: the mail reads on past the reader's other events", async () => {
    const { market, buyer, list, round, deps } = await world({ setting: "instant" });
    await market.savedSearches.create(buyer.actor, { q: "audit", name: "Audits" });
    // More of the reader's own events than one read looks through, all before the match.
    const now = deps.clock.now();
    await deps.repos.events.append(
      Array.from({ length: UNMAILED_SCAN_EVENTS + 10 }, () => ({
        id: newEventId(now, deps.random.bytes(10)),
        type: "webhook.test" as const,
        userId: buyer.user.id,
        occurredAt: now,
        data: {},
      })),
    );
    const match = await list("Security audit");
    const mails = await round();
    expect(mails.map((mail) => mail.searches[0]?.listings.map((l) => l.title))).toEqual([[match.title]]);
  });

  it("daily: one digest of every saved search a day", async () => {
    const { market, buyer, list, round, deps } = await world();
    await market.savedSearches.create(buyer.actor, { q: "audit", name: "Audits" });
    await market.savedSearches.create(buyer.actor, { category: "cybersecurity", name: "Security" });
    await list("First audit");
    const [first] = await round();
    expect(first).toMatchObject({ digest: true });
    expect(first!.searches.map((s) => s.name).sort()).toEqual(["Audits", "Security"]);
    await list("Second audit");
    deps.clock.advance(SAVED_SEARCH_MAIL_INTERVAL_MS);
    expect(await round()).toHaveLength(1);
    deps.clock.advance(SAVED_SEARCH_DIGEST_INTERVAL_MS);
    const second = (await round()).at(-1);
    expect(second?.searches.flatMap((s) => s.listings.map((l) => l.title))).toEqual([
      "Second audit",
      "Second audit",
    ]);
  });

  it("mails nobody whose address is unproven or who turned it off", async () => {
    for (const options of [{ proven: false }, { setting: "off" as const }]) {
      const { market, buyer, list, round } = await world(options);
      await market.savedSearches.create(buyer.actor, { q: "audit" });
      await list("Security audit");
      expect(await round()).toEqual([]);
    }
  });
});

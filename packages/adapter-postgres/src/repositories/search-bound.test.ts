import { adversarialListings, buildUser, expectAdversarialSearchAgrees } from "@psm/core/testing";
import { expect, it } from "vitest";
import { describePostgres } from "../../test/hooks.js";
import { openPostgresStorage } from "../index.js";

describePostgres("postgres search bound on adversarial terms", (ctx) => {
  it("answers them as the oracle does when PostgreSQL cancels searches at a 1 ms budget", async () => {
    const author = buildUser();
    const tight = openPostgresStorage({ url: ctx.database().url, poolMax: 1, searchTimeoutMs: 1 });
    try {
      const { repositories } = tight;
      await repositories.users.insert(author);
      const rows = adversarialListings(author);
      const room = { maxSlots: 1000, now: new Date("2026-03-01T12:00:00.000Z") };
      for (const row of rows) await repositories.listings.insertWithinSlots(row, room);
      // Whether a search finished within the budget or answered its slice after the cancel,
      // every page is the next slice of the whole answer.
      const { withHits } = await expectAdversarialSearchAgrees(repositories, rows);
      expect(withHits).toBeGreaterThan(15);
    } finally {
      await tight.close();
    }
  });
});

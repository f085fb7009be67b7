import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteStorage } from "@psm/adapter-sqlite";
import type { Repositories } from "@psm/core";
import { createMemoryStorage } from "@psm/core/testing";
import { afterEach, describe, expect, test } from "vitest";
import { createService, runScenario } from "../src/service.js";

const JWT_SECRET = "an example secret of at least 32 bytes";

/** Runs the scenario on `repos` and checks what every backend must agree on. */
async function scenarioOn(repos: Repositories): Promise<void> {
  const { market, mailer } = createService({ repos, jwtSecret: JWT_SECRET });
  const result = await runScenario(market);

  expect(result.seller.email).toBe("seller@example.com");
  expect(result.listing.userId).toBe(result.seller.id);
  expect(result.found.map((listing) => listing.id)).toEqual([result.listing.id]);
  expect(result.message).toMatchObject({
    listingId: result.listing.id,
    senderId: result.buyer.id,
    receiverId: result.seller.id,
  });
  expect(result.inbox.map((message) => message.id)).toEqual([result.message.id]);
  // Sign-up queued one verification mail each; the mail round handed both to our mailer.
  expect(result.mailsSent).toBe(2);
  expect(mailer.sent.map((mail) => [mail.kind, mail.to]).sort()).toEqual([
    ["email_verification", "buyer@example.com"],
    ["email_verification", "seller@example.com"],
  ]);
}

describe("the embedded marketplace", () => {
  test("on @psm/core/testing's in-memory repositories", async () => {
    await scenarioOn(createMemoryStorage().repositories);
  });

  describe("on a SQLite file", () => {
    let dir: string | undefined;
    afterEach(async () => {
      if (dir !== undefined) await rm(dir, { recursive: true, force: true });
    });

    test("migrated first, then the same scenario; the data is on disk afterwards", async () => {
      dir = await mkdtemp(join(tmpdir(), "psm-embed-"));
      const file = join(dir, "market.db");
      const storage = openSqliteStorage({ file });
      await storage.migrate();
      try {
        await scenarioOn(storage.repositories);
      } finally {
        await storage.close();
      }

      const reopened = openSqliteStorage({ file });
      try {
        const seller = await reopened.repositories.users.findByEmail("seller@example.com");
        expect(seller?.displayName).toBe("Seller");
      } finally {
        await reopened.close();
      }
    });
  });
});

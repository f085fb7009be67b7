import { describe, expect, it } from "vitest";
import { accountRecoveryCases } from "./account-recovery.js";
import { adversarialSearchCases } from "./adversarial-search.js";
import { apiKeyCases } from "./api-keys.js";
import { type ContractOptions, useStorage } from "./context.js";
import { eventCases } from "./events.js";
import { idempotencyCases } from "./idempotency.js";
import { keyRecoveryRaceCases } from "./key-recovery-race.js";
import { listingFullTextCases } from "./listing-full-text.js";
import { listingOracleCases } from "./listing-oracle.js";
import { listingReactivationCases } from "./listing-reactivation.js";
import { listingSearchCases } from "./listing-search.js";
import { listingSlotCases } from "./listing-slots.js";
import { listingSortCases } from "./listing-sorts.js";
import { listingCases } from "./listings.js";
import { mailQueueCases } from "./mail-queue.js";
import { messageCases } from "./messages.js";
import { notificationCases } from "./notifications.js";
import { oauthCases } from "./oauth.js";
import { resetRequestCases } from "./reset-requests.js";
import { tokenStoreCases } from "./reset-tokens.js";
import { savedSearchOracleCases } from "./saved-search-oracle.js";
import { savedSearchCases } from "./saved-searches.js";
import { searchFoldingCases } from "./search-folding.js";
import { sessionCases } from "./sessions.js";
import { storageErrorCases } from "./storage-errors.js";
import { unitOfWorkCases } from "./unit-of-work.js";
import { userCascadeCases } from "./user-cascade.js";
import { userCases } from "./users.js";
import { webhookCases } from "./webhooks.js";

export type { ContractOptions } from "./context.js";

/**
 * Registers the storage contract: every repository method, through the port
 * only, each case on a fresh storage from `open()`. Memory, SQLite and
 * PostgreSQL call it so that one suite keeps them equal.
 */
export function runRepositoryContract(name: string, options: ContractOptions): void {
  describe(`repository contract: ${name}`, () => {
    const ctx = useStorage(options);

    describe("storage", () => {
      it("migrate is idempotent and ping answers true", async () => {
        await ctx.storage().migrate();
        expect(await ctx.storage().ping()).toBe(true);
      });
    });

    listingSearchCases(ctx);
    searchFoldingCases(ctx);
    listingFullTextCases(ctx);
    listingSortCases(ctx);
    listingOracleCases(ctx);
    adversarialSearchCases(ctx);
    listingCases(ctx);
    listingSlotCases(ctx);
    listingReactivationCases(ctx);
    userCases(ctx);
    userCascadeCases(ctx);
    apiKeyCases(ctx);
    messageCases(ctx);
    eventCases(ctx);
    webhookCases(ctx);
    oauthCases(ctx);
    savedSearchCases(ctx);
    savedSearchOracleCases(ctx);
    tokenStoreCases(ctx, "resetTokens");
    tokenStoreCases(ctx, "verificationTokens");
    accountRecoveryCases(ctx);
    keyRecoveryRaceCases(ctx);
    mailQueueCases(ctx);
    notificationCases(ctx);
    resetRequestCases(ctx);
    storageErrorCases(ctx);
    sessionCases(ctx);
    idempotencyCases(ctx);
    unitOfWorkCases(ctx);
  });
}

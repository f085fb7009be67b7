import { describe, expect, it } from "vitest";
import { createMarketplace } from "../../marketplace.js";
import { sha256Hex } from "../../support/crypto.js";
import { webCryptoRandom } from "../../support/runtime.js";
import { createTestDeps } from "../fakes/deps.js";
import type { ContractContext } from "./context.js";

const MINTERS = 6;
const RESETS = 4;
/** Keys stored before the first reset begins, so creations are in full flight when it does. */
const MINTED_BEFORE = 6;
/** A bound on each minter's loop, far above what the resets need. */
const MAX_ROUNDS = 5_000;

/**
 * Account recovery on the backend, through the use cases: an intruder's key
 * creations racing the owner's resets. Whatever interleaving the backend
 * allows, no key minted with a credential the reset ended outlives it.
 */
export function keyRecoveryRaceCases(ctx: ContractContext): void {
  describe("account recovery racing key creation", () => {
    it("no key minted by the intruder survives the resets, however creations and resets interleave", async () => {
      if (!ctx.concurrency) return;
      const deps = createTestDeps({ repos: ctx.repos(), random: webCryptoRandom });
      const market = createMarketplace(deps);
      const email = "raced@example.com";
      const user = await market.auth.signUp({ email, password: "intruder-pass" });
      const { token } = await market.auth.logIn({ email, password: "intruder-pass" });
      const armed = await market.apiKeys.create(await market.auth.authenticate({ bearer: token }), {});

      const minted: string[] = [];
      let resetsDone = false;
      let enough!: () => void;
      const armedEnough = new Promise<void>((resolve) => (enough = resolve));
      // Each minter authenticates anew for every key, with the first key or one it minted, as a
      // client holding them would (authentication reads the key, then the user), until a few
      // rounds after the last reset.
      const mint = async (worker: number) => {
        for (let round = 0, after = 0; after < 3 && round < MAX_ROUNDS; round++) {
          const secret = round % 2 === 0 ? armed.secret : (minted.at(-1 - worker) ?? armed.secret);
          try {
            const actor = await market.auth.authenticate({ apiKey: secret });
            minted.push((await market.apiKeys.create(actor, { name: `w${worker}r${round}` })).secret);
          } catch {
            // Refused: a reset ended the credential. What matters is what survives.
          }
          if (minted.length >= MINTED_BEFORE) enough();
          if (resetsDone) after++;
        }
      };
      const reset = async () => {
        await armedEnough;
        try {
          for (let i = 0; i < RESETS; i++) {
            const value = `race-reset-token-${i}`;
            const now = deps.clock.now();
            await deps.repos.resetTokens.insert({
              tokenHash: sha256Hex(value),
              userId: user.id,
              expiresAt: new Date(now.getTime() + 60_000),
              createdAt: now,
            });
            await market.auth.updatePassword({ token: value, newPassword: `owner-password-${i}` });
          }
        } finally {
          resetsDone = true;
        }
      };
      await Promise.all([reset(), ...Array.from({ length: MINTERS }, (_, worker) => mint(worker))]);

      expect(minted.length).toBeGreaterThanOrEqual(MINTED_BEFORE);
      const survivors: string[] = [];
      for (const secret of [armed.secret, ...minted]) {
        const outcome = await market.auth.authenticate({ apiKey: secret }).catch(() => null);
        if (outcome !== null) survivors.push(secret.slice(0, 12));
      }
      expect(survivors).toEqual([]);
    });
  });
}

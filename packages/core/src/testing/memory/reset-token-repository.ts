import type { ResetToken, ResetTokenRepository } from "../../ports/reset-token-repository.js";
import { copy, type MemoryState, type StoredResetToken } from "./state.js";

function usable(token: StoredResetToken | undefined, now: Date): token is StoredResetToken {
  return token !== undefined && !token.used && token.expiresAt.getTime() > now.getTime();
}

/** The in-memory ResetTokenRepository, keyed by digest. */
export function createMemoryResetTokenRepository(state: MemoryState): ResetTokenRepository {
  const { resetTokens } = state;
  return {
    async insert(token: ResetToken) {
      resetTokens.set(token.tokenHash, { ...copy(token), used: false });
    },
    async consume(tokenHash: string, now: Date) {
      const token = resetTokens.get(tokenHash);
      // The check and the mark run with no await between: racing calls cannot both win.
      if (!usable(token, now)) return null;
      token.used = true;
      return token.userId;
    },
    async isValid(tokenHash: string, now: Date) {
      return usable(resetTokens.get(tokenHash), now);
    },
    async delete(tokenHash: string) {
      resetTokens.delete(tokenHash);
    },
    async deleteByUser(userId: string) {
      for (const [hash, token] of resetTokens) if (token.userId === userId) resetTokens.delete(hash);
    },
  };
}

import type { ResetToken, ResetTokenRepository } from "../../ports/reset-token-repository.js";
import { copy, insertNew, type MemoryState, requireUser, type StoredResetToken } from "./state.js";

function usable(token: StoredResetToken | undefined, now: Date): token is StoredResetToken {
  return token !== undefined && !token.used && token.expiresAt.getTime() > now.getTime();
}

/**
 * An in-memory single-use token store over one table of `state`, keyed by
 * digest: `resetTokens` or `verificationTokens`.
 */
export function createMemoryTokenRepository(
  state: MemoryState,
  table: "resetTokens" | "verificationTokens",
): ResetTokenRepository {
  const tokens = state[table];
  return {
    async insert(token: ResetToken) {
      requireUser(state, token.userId);
      insertNew(tokens, token.tokenHash, { ...copy(token), used: false });
    },
    async consume(tokenHash: string, now: Date) {
      const token = tokens.get(tokenHash);
      // The check and the mark run with no await between: racing calls cannot both win.
      if (!usable(token, now)) return null;
      token.used = true;
      return token.userId;
    },
    async isValid(tokenHash: string, now: Date) {
      return usable(tokens.get(tokenHash), now);
    },
    async delete(tokenHash: string) {
      tokens.delete(tokenHash);
    },
    async deleteByUser(userId: string) {
      for (const [hash, token] of tokens) if (token.userId === userId) tokens.delete(hash);
    },
  };
}

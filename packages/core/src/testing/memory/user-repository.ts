import type { PageQuery } from "../../domain/page.js";
import type { AccountType, User } from "../../domain/user.js";
import { MarketplaceError } from "../../errors.js";
import type { UserRepository } from "../../ports/user-repository.js";
import { copy, copyOrNull, insertNew, type MemoryState, pageById } from "./state.js";

function sameEmail(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** The in-memory UserRepository; deleteCascade reaches the other tables of `state`. */
export function createMemoryUserRepository(state: MemoryState): UserRepository {
  const { users } = state;

  function findByEmail(email: string): User | undefined {
    for (const user of users.values()) if (sameEmail(user.email, email)) return user;
    return undefined;
  }

  function removeWhere<T>(table: Map<string, T>, belongs: (row: T) => boolean): void {
    for (const [key, row] of table) if (belongs(row)) table.delete(key);
  }

  return {
    async findById(id: string) {
      return copyOrNull(users.get(id));
    },
    // Units of work run one at a time here, so reading is holding.
    async holdById(id: string) {
      return copyOrNull(users.get(id));
    },
    async findByEmail(email: string) {
      return copyOrNull(findByEmail(email));
    },
    async insert(user: User) {
      if (findByEmail(user.email)) throw new MarketplaceError("email_taken");
      insertNew(users, user.id, copy(user));
    },
    async list(page: PageQuery) {
      return pageById(users.values(), page);
    },
    async updateProfile(
      id: string,
      changes: { displayName?: string; accountType?: AccountType; isAdmin?: boolean },
    ) {
      const user = users.get(id);
      if (!user) return null;
      if (changes.displayName !== undefined) user.displayName = changes.displayName;
      if (changes.accountType !== undefined) user.accountType = changes.accountType;
      if (changes.isAdmin !== undefined) user.isAdmin = changes.isAdmin;
      return copy(user);
    },
    async setPasswordHash(id: string, passwordHash: string, options: { revokeTokens: boolean }) {
      const user = users.get(id);
      if (!user) return false;
      user.passwordHash = passwordHash;
      if (options.revokeTokens) user.tokenVersion += 1;
      return true;
    },
    async markEmailVerified(id: string, at: Date) {
      const user = users.get(id);
      if (!user) return null;
      user.emailVerifiedAt ??= new Date(at.getTime());
      return copy(user);
    },
    async deleteCascade(id: string) {
      if (!users.delete(id)) return false;
      // Messages stay: they belong to both parties and outlive either.
      removeWhere(state.listings, (row) => row.userId === id);
      removeWhere(state.apiKeys, (row) => row.userId === id);
      removeWhere(state.resetTokens, (row) => row.userId === id);
      removeWhere(state.verificationTokens, (row) => row.userId === id);
      removeWhere(state.mailJobs, (row) => row.userId === id);
      removeWhere(state.sessions, (row) => row.userId === id);
      removeWhere(state.oauthCodes, (row) => row.userId === id);
      removeWhere(state.oauthGrants, (row) => row.userId === id);
      removeWhere(state.oauthRefreshTokens, (row) => !state.oauthGrants.has(row.grantId));
      removeWhere(state.events, (row) => row.userId === id);
      state.notificationSettings.delete(id);
      const hooks = new Set(
        [...state.webhooks.values()].filter((row) => row.userId === id).map((row) => row.id),
      );
      removeWhere(state.webhooks, (row) => hooks.has(row.id));
      removeWhere(state.webhookDeliveries, (row) => hooks.has(row.webhookId));
      removeWhere(state.savedSearches, (row) => row.userId === id);
      removeWhere(
        state.savedSearchMatches,
        (row) => !state.savedSearches.has(row.savedSearchId) || !state.listings.has(row.listingId),
      );
      return true;
    },
  };
}

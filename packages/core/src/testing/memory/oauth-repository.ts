import type { OAuthGrant } from "../../domain/oauth.js";
import type { OAuthClientRepository, OAuthGrantRepository } from "../../ports/oauth-repository.js";
import { copy, copyOrNull, insertNew, type MemoryState, requireUser } from "./state.js";

/** The in-memory OAuthClientRepository. */
export function createMemoryOAuthClientRepository(state: MemoryState): OAuthClientRepository {
  return {
    async insert(client) {
      insertNew(state.oauthClients, client.id, copy(client));
    },
    async findById(id) {
      return copyOrNull(state.oauthClients.get(id));
    },
  };
}

const live = (grant: OAuthGrant | undefined, now: Date): grant is OAuthGrant =>
  grant !== undefined && grant.revokedAt === null && grant.expiresAt.getTime() > now.getTime();

/** The in-memory OAuthGrantRepository; each call runs whole before another, so consumption is atomic. */
export function createMemoryOAuthGrantRepository(state: MemoryState): OAuthGrantRepository {
  const { oauthCodes: codes, oauthGrants: grants, oauthRefreshTokens: tokens } = state;
  const revoke = (id: string, now: Date, userId?: string): boolean => {
    const grant = grants.get(id);
    if (!live(grant, now) || (userId !== undefined && grant.userId !== userId)) return false;
    grant.revokedAt = now;
    return true;
  };
  return {
    async insertCode(code) {
      requireUser(state, code.userId);
      insertNew(codes, code.codeHash, { ...copy(code), used: false });
    },
    async findCode(codeHash, now) {
      const stored = codes.get(codeHash);
      if (!stored || stored.expiresAt.getTime() <= now.getTime()) return null;
      const { used: _, ...code } = copy(stored);
      return code;
    },
    async exchangeCode(codeHash, grant, refresh, now) {
      const code = codes.get(codeHash);
      if (!code || code.used) {
        if (code) revoke(code.grantId, now);
        return { kind: "reused" };
      }
      requireUser(state, grant.userId);
      code.used = true;
      grants.set(grant.id, copy(grant));
      tokens.set(refresh.tokenHash, copy(refresh));
      return { kind: "issued" };
    },
    async rotateRefreshToken(tokenHash, replacement, now) {
      const token = tokens.get(tokenHash);
      const grant = token && grants.get(token.grantId);
      if (!token || !grant) return { kind: "invalid" };
      if (token.usedAt !== null) {
        revoke(grant.id, now);
        return { kind: "reused", grantId: grant.id };
      }
      if (token.expiresAt.getTime() <= now.getTime() || !live(grant, now)) return { kind: "invalid" };
      token.usedAt = now;
      insertNew(tokens, replacement.tokenHash, { ...copy(replacement), grantId: grant.id, usedAt: null });
      grant.expiresAt = replacement.expiresAt;
      return { kind: "rotated", grant: copy(grant) };
    },
    async findGrant(id) {
      return copyOrNull(grants.get(id));
    },
    async findGrantByRefreshToken(tokenHash) {
      const token = tokens.get(tokenHash);
      return token ? copyOrNull(grants.get(token.grantId)) : null;
    },
    async listLiveGrants(userId, now) {
      return [...grants.values()]
        .filter((grant) => grant.userId === userId && live(grant, now))
        .sort((a, b) => (a.id < b.id ? 1 : -1))
        .map(copy);
    },
    async revokeGrant(id, now, userId) {
      return revoke(id, now, userId);
    },
    async deleteExpired(now) {
      let removed = 0;
      for (const [hash, code] of codes) {
        if (code.expiresAt.getTime() <= now.getTime()) removed += Number(codes.delete(hash));
      }
      for (const [id, grant] of grants) {
        if (grant.expiresAt.getTime() <= now.getTime()) removed += Number(grants.delete(id));
      }
      for (const [hash, token] of tokens) if (!grants.has(token.grantId)) tokens.delete(hash);
      return removed;
    },
  };
}

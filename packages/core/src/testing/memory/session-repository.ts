import type { Session, SessionRepository } from "../../ports/session-repository.js";
import { copy, insertNew, type MemoryState, requireUser } from "./state.js";

/** The in-memory SessionRepository, keyed by token digest. */
export function createMemorySessionRepository(state: MemoryState): SessionRepository {
  const { sessions } = state;
  return {
    async insert(session: Session) {
      requireUser(state, session.userId);
      insertNew(sessions, session.tokenHash, copy(session));
    },
    async find(tokenHash: string, now: Date) {
      const session = sessions.get(tokenHash);
      return session && session.expiresAt.getTime() > now.getTime() ? copy(session) : null;
    },
    async delete(tokenHash: string) {
      sessions.delete(tokenHash);
    },
    async deleteExpired(now: Date) {
      let removed = 0;
      for (const [hash, session] of sessions) {
        if (session.expiresAt.getTime() <= now.getTime()) {
          sessions.delete(hash);
          removed++;
        }
      }
      return removed;
    },
  };
}

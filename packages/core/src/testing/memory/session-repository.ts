import type { Session, SessionRepository } from "../../ports/session-repository.js";
import { copy, copyIfLive, deleteExpired, insertNew, type MemoryState, requireUser } from "./state.js";

/** The in-memory SessionRepository, keyed by token digest. */
export function createMemorySessionRepository(state: MemoryState): SessionRepository {
  const { sessions } = state;
  return {
    async insert(session: Session) {
      requireUser(state, session.userId);
      insertNew(sessions, session.tokenHash, copy(session));
    },
    async find(tokenHash: string, now: Date) {
      return copyIfLive(sessions.get(tokenHash), now);
    },
    async delete(tokenHash: string) {
      sessions.delete(tokenHash);
    },
    async deleteExpired(now: Date) {
      return deleteExpired(sessions, now);
    },
  };
}

import type { Deps } from "../../deps.js";
import { type Actor, ANONYMOUS } from "../../domain/actor.js";
import { sha256Hex, toBase64Url } from "../../support/crypto.js";
import { requireJwtUser } from "../access.js";

/** How long a browser session lasts (as long as a JWT). */
export const SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** A browser session's token (shown once, for the cookie) and its end. */
export interface OpenedSession {
  token: string;
  expiresAt: Date;
}

/** A token's digest; only the digest is stored. */
function digest(token: string): string | null {
  // 32 random bytes in base64url are 43 characters; anything else was never issued.
  return /^[A-Za-z0-9_-]{43}$/.test(token) ? sha256Hex(token) : null;
}

/**
 * Opens a server-side session for a caller who signed in with a password (a
 * JWT or another session): the web pages keep its token in a cookie. API keys
 * cannot open one, so a leaked key never becomes a browser login.
 */
export async function openSession(
  deps: Pick<Deps, "repos" | "clock" | "random">,
  actor: Actor,
): Promise<OpenedSession> {
  const { user } = requireJwtUser(actor);
  const token = toBase64Url(deps.random.bytes(32));
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  await deps.repos.sessions.insert({
    tokenHash: sha256Hex(token),
    userId: user.id,
    tokenVersion: user.tokenVersion,
    createdAt: now,
    expiresAt,
  });
  return { token, expiresAt };
}

/**
 * The caller a session token names, read from storage on every call: anonymous
 * when the token is unknown, expired or ended, when its user was deleted, or
 * when the user's password changed since it was opened.
 */
export async function resumeSession(deps: Pick<Deps, "repos" | "clock">, token: string): Promise<Actor> {
  const hash = digest(token);
  if (hash === null) return ANONYMOUS;
  const session = await deps.repos.sessions.find(hash, deps.clock.now());
  if (!session) return ANONYMOUS;
  const user = await deps.repos.users.findById(session.userId);
  if (!user || user.tokenVersion !== session.tokenVersion) return ANONYMOUS;
  return { kind: "user", user, via: "session" };
}

/** Ends a session server-side (log out); an unknown token is a no-op. */
export async function closeSession(deps: Pick<Deps, "repos">, token: string): Promise<void> {
  const hash = digest(token);
  if (hash !== null) await deps.repos.sessions.delete(hash);
}

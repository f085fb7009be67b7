import type { AuthorizationCode, OAuthClient, OAuthGrant, RefreshToken } from "../domain/oauth.js";

/** Clients registered by RFC 7591 dynamic registration. Missing rows give null, never a throw. */
export interface OAuthClientRepository {
  /** Throws `internal_error` when the id is taken (ids are random: never expected). */
  insert(client: OAuthClient): Promise<void>;
  findById(id: string): Promise<OAuthClient | null>;
}

/** How a refresh token's use ended (OAuthGrantRepository.rotateRefreshToken). */
export type RefreshOutcome =
  /** The token was live and unused: it is now used, and `replacement` belongs to its grant. */
  | { kind: "rotated"; grant: OAuthGrant }
  /** The token had been used before: its grant is now revoked (RFC 9700 section 4.14.2). */
  | { kind: "reused"; grantId: string }
  /** Unknown, expired, or of a revoked or expired grant. Nothing changed. */
  | { kind: "invalid" };

/** How an authorization code's exchange ended (OAuthGrantRepository.exchangeCode). */
export type CodeOutcome =
  /** First use: the grant and its first refresh token are stored. */
  | { kind: "issued" }
  /** The code had been exchanged before: the grant it made is now revoked (RFC 6749 section 4.1.2). */
  | { kind: "reused" };

/**
 * Grants, their authorization codes and their refresh tokens. Codes and refresh tokens are found
 * by digest only; every method that consumes one is atomic, so of two racing callers exactly one
 * wins and the other is told it reused it.
 */
export interface OAuthGrantRepository {
  /** Stores a code for the exchange. Throws `user_not_found` for an unknown user. */
  insertCode(code: AuthorizationCode): Promise<void>;
  /** The code by digest if it has not expired at `now` (used or not); null otherwise. */
  findCode(codeHash: string, now: Date): Promise<AuthorizationCode | null>;
  /**
   * Exchanges the code `codeHash` once, atomically: the first call stores `grant` and `refresh`
   * (of that grant) and marks the code used; any later call stores nothing and revokes the grant
   * the first one stored, at `now`.
   */
  exchangeCode(codeHash: string, grant: OAuthGrant, refresh: RefreshToken, now: Date): Promise<CodeOutcome>;
  /**
   * Uses the refresh token `tokenHash` once, atomically: when it is unused, unexpired and its
   * grant live at `now`, marks it used, stores `replacement` for the same grant and moves the
   * grant's expiry to the replacement's. A token used before revokes its grant.
   */
  rotateRefreshToken(
    tokenHash: string,
    replacement: Omit<RefreshToken, "grantId" | "usedAt">,
    now: Date,
  ): Promise<RefreshOutcome>;
  findGrant(id: string): Promise<OAuthGrant | null>;
  /** The grant a refresh token (used or not) belongs to, or null. */
  findGrantByRefreshToken(tokenHash: string): Promise<OAuthGrant | null>;
  /** A user's grants neither revoked nor expired at `now`, newest first. */
  listLiveGrants(userId: string, now: Date): Promise<OAuthGrant[]>;
  /**
   * Revokes grant `id` at `now` (its refresh and access tokens stop working). With `userId`, only
   * that user's grant. False when there was no such live grant.
   */
  revokeGrant(id: string, now: Date, userId?: string): Promise<boolean>;
  /** Removes codes and grants expired at `now` (a grant's refresh tokens with it); answers how many codes and grants went. */
  deleteExpired(now: Date): Promise<number>;
}

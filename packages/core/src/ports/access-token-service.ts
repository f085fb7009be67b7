import type { Scope } from "../domain/scopes.js";

/** What an OAuth access token says (RFC 9068 names in brackets). */
export interface AccessTokenClaims {
  /** The user (`sub`). */
  userId: string;
  /** The grant it was issued under (`gid`): revoking the grant ends the token at once. */
  grantId: string;
  /** The client (`client_id`). */
  clientId: string;
  scopes: readonly Scope[];
  /** The resources it may be presented to (`aud`), absolute URLs. */
  audience: readonly string[];
}

/** Issues and verifies OAuth access tokens: signed, short-lived, distinct from session JWTs. */
export interface AccessTokenService {
  /** A token for `claims` valid `ttlSeconds` from now. */
  issue(claims: AccessTokenClaims, ttlSeconds: number): Promise<string>;
  /** Null for anything invalid: signature, type, issuer, expiry, shape. */
  verify(token: string): Promise<AccessTokenClaims | null>;
}

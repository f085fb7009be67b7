/** The claims of a session token. */
export interface TokenClaims {
  /** User id (also sent as `id`). */
  sub: string;
  email: string;
  isAdmin: boolean;
  /** The user's token version when issued. */
  version: number;
}

/** Issues and verifies session tokens (JWT, HS256 by default). */
export interface TokenService {
  issue(claims: TokenClaims): Promise<string>;
  /** Null for anything invalid: bad signature, wrong algorithm, expired, not yet valid, malformed. */
  verify(token: string): Promise<TokenClaims | null>;
}

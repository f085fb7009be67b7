import { errors, jwtVerify, SignJWT } from "jose";
import { JWT_TTL_SECONDS } from "../domain/limits.js";
import type { Clock } from "../ports/clock.js";
import type { TokenClaims, TokenService } from "../ports/token-service.js";
import { createVerifiedTokens } from "./verified-tokens.js";

/**
 * The shortest HS256 secret accepted, in UTF-8 bytes: RFC 7518 §3.2 asks for a
 * key at least as long as the hash output (256 bits).
 */
export const MIN_JWT_SECRET_BYTES = 32;

/**
 * HS256 JWTs keyed with the UTF-8 bytes of `secret`, valid 7 days, with claims
 * sub and id (the user id), email, is_admin and ver (the token version). The
 * HMAC key is imported once as a CryptoKey, not per request, and a token
 * verified once is not verified again until it expires (verified-tokens.ts).
 *
 * Throws a RangeError at once when `secret` is shorter than 32 UTF-8 bytes, so
 * a weak or empty secret stops the embedding service at start rather than
 * failing its first sign-in with an error that names nothing.
 */
export function createJwtTokenService(secret: string, clock: Clock): TokenService {
  // Checked for JavaScript callers too: TextEncoder would quietly encode undefined as "".
  if (typeof secret !== "string") throw new TypeError("JWT secret must be a string");
  const keyBytes = new TextEncoder().encode(secret);
  if (keyBytes.length < MIN_JWT_SECRET_BYTES) {
    throw new RangeError(
      `JWT secret must be at least ${MIN_JWT_SECRET_BYTES} bytes (got ${keyBytes.length})`,
    );
  }
  const keyPromise = globalThis.crypto.subtle.importKey(
    "raw",
    keyBytes,
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign", "verify"],
  );
  const verified = createVerifiedTokens<TokenClaims>();
  return {
    async issue(claims: TokenClaims): Promise<string> {
      const now = Math.floor(clock.now().getTime() / 1000);
      return new SignJWT({
        id: claims.sub,
        email: claims.email,
        is_admin: claims.isAdmin,
        ver: claims.version,
      })
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .setSubject(claims.sub)
        .setIssuedAt(now)
        .setNotBefore(now)
        .setExpirationTime(now + JWT_TTL_SECONDS)
        .sign(await keyPromise);
    },
    async verify(token: string): Promise<TokenClaims | null> {
      const currentDate = clock.now();
      const known = verified.get(token, currentDate.getTime() / 1000);
      if (known !== undefined) return known;
      try {
        const { payload } = await jwtVerify(token, await keyPromise, {
          algorithms: ["HS256"],
          currentDate,
          requiredClaims: ["sub", "exp"],
        });
        const { sub, email, is_admin: isAdmin, ver, exp = 0, nbf } = payload;
        if (typeof sub !== "string" || typeof email !== "string" || typeof ver !== "number") return null;
        const claims: TokenClaims = Object.freeze({ sub, email, isAdmin: isAdmin === true, version: ver });
        verified.set(token, claims, exp, nbf);
        return claims;
      } catch (error) {
        if (error instanceof errors.JOSEError || error instanceof TypeError) return null;
        throw error;
      }
    },
  };
}

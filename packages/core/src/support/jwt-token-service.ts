import { errors, jwtVerify, SignJWT } from "jose";
import { JWT_TTL_SECONDS } from "../domain/limits.js";
import type { Clock } from "../ports/clock.js";
import type { TokenClaims, TokenService } from "../ports/token-service.js";

/**
 * HS256 JWTs keyed with the UTF-8 bytes of `secret`, valid 7 days, with claims
 * sub and id (the user id), email, is_admin and ver (the token version). The
 * HMAC key is imported once as a CryptoKey, not per request.
 */
export function createJwtTokenService(secret: string, clock: Clock): TokenService {
  const keyPromise = globalThis.crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign", "verify"],
  );
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
      try {
        const { payload } = await jwtVerify(token, await keyPromise, {
          algorithms: ["HS256"],
          currentDate: clock.now(),
          requiredClaims: ["sub", "exp"],
        });
        const { sub, email, is_admin: isAdmin, ver } = payload;
        if (typeof sub !== "string" || typeof email !== "string" || typeof ver !== "number") return null;
        return { sub, email, isAdmin: isAdmin === true, version: ver };
      } catch (error) {
        if (error instanceof errors.JOSEError || error instanceof TypeError) return null;
        throw error;
      }
    },
  };
}

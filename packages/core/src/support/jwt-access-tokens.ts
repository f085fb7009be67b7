import { errors, jwtVerify, SignJWT } from "jose";
import { isScope, type Scope } from "../domain/scopes.js";
import type { AccessTokenClaims, AccessTokenService } from "../ports/access-token-service.js";
import type { Clock } from "../ports/clock.js";
import { createVerifiedTokens } from "./verified-tokens.js";

/** RFC 9068's media type for JWT access tokens: a session JWT never carries it, so neither passes for the other. */
const TYPE = "at+jwt";

/**
 * OAuth access tokens as RFC 9068 JWTs, HS256 under `key` (at least 32 bytes; give it a key of
 * its own, derived apart from the session JWT secret), issued by `issuer` (PUBLIC_URL). Claims:
 * iss, sub, aud, client_id, scope, gid (the grant), iat, exp, jti.
 */
export function createJwtAccessTokenService(
  key: Uint8Array,
  issuer: string,
  clock: Clock,
): AccessTokenService {
  if (key.length < 32) throw new RangeError("an access-token key needs at least 32 bytes");
  const keyPromise = globalThis.crypto.subtle.importKey(
    "raw",
    Uint8Array.from(key),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign", "verify"],
  );
  // A token verified once is not verified again until it expires; the grant is still checked per use.
  const verified = createVerifiedTokens<AccessTokenClaims>();
  return {
    async issue(claims, ttlSeconds) {
      const now = Math.floor(clock.now().getTime() / 1000);
      return new SignJWT({ client_id: claims.clientId, scope: claims.scopes.join(" "), gid: claims.grantId })
        .setProtectedHeader({ alg: "HS256", typ: TYPE })
        .setIssuer(issuer)
        .setSubject(claims.userId)
        .setAudience([...claims.audience])
        .setIssuedAt(now)
        .setExpirationTime(now + ttlSeconds)
        .setJti(globalThis.crypto.randomUUID())
        .sign(await keyPromise);
    },
    async verify(token) {
      const currentDate = clock.now();
      const known = verified.get(token, currentDate.getTime() / 1000);
      if (known !== undefined) return known;
      try {
        const { payload } = await jwtVerify(token, await keyPromise, {
          algorithms: ["HS256"],
          typ: TYPE,
          issuer,
          currentDate,
          requiredClaims: ["sub", "exp", "aud"],
        });
        const { sub, aud, client_id: clientId, scope, gid, exp = 0, nbf } = payload;
        if (typeof sub !== "string" || typeof clientId !== "string" || typeof gid !== "string") return null;
        if (typeof scope !== "string") return null;
        const scopes = scope === "" ? [] : scope.split(" ");
        if (!scopes.every(isScope)) return null;
        const audience = typeof aud === "string" ? [aud] : (aud ?? []);
        const claims: AccessTokenClaims = Object.freeze({
          userId: sub,
          grantId: gid,
          clientId,
          scopes: Object.freeze(scopes) as Scope[],
          audience: Object.freeze(audience) as string[],
        });
        verified.set(token, claims, exp, nbf);
        return claims;
      } catch (error) {
        if (error instanceof errors.JOSEError || error instanceof TypeError) return null;
        throw error;
      }
    },
  };
}

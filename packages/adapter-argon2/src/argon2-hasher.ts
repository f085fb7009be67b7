import { argon2, randomBytes, timingSafeEqual } from "node:crypto";
import { availableParallelism } from "node:os";
import { MarketplaceError, type PasswordHasher } from "@psm/core";
import { createLane } from "./lane.js";

/** argon2id cost parameters, as written into each PHC string. */
export interface Argon2Params {
  /** Memory in KiB (m). */
  memoryKiB: number;
  /** Passes over the memory (t). */
  passes: number;
  /** Lanes (p). */
  parallelism: number;
}

/** OWASP's minimum for argon2id (m=19 MiB, t=2, p=1): the default parameters of new hashes. */
export const OWASP_MIN: Argon2Params = { memoryKiB: 19_456, passes: 2, parallelism: 1 };

/** Options of createArgon2Hasher; every one has a default. */
export interface Argon2HasherOptions {
  /** Parameters of new hashes (default OWASP_MIN); verification reads each hash's own. */
  params?: Argon2Params;
  /** Verifications (logins) at once, in a lane of their own (default cores − 1, at least 1). */
  verifyConcurrency?: number;
  /** New hashes (sign-up, password change) at once (default 1). */
  hashConcurrency?: number;
  /** New hashes that may wait for the hash lane; one more is refused with 503 (default 32). */
  hashQueue?: number;
  /** Retry-After of that refusal, in seconds (default 2). */
  retryAfterSeconds?: number;
}

const PHC = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

/**
 * argon2id through Node's native, asynchronous crypto.argon2: hashing runs on
 * libuv's thread pool, never on the event loop. Hashes are PHC strings, so the
 * parameters can be raised later and old hashes upgraded at login.
 *
 * Two lanes: verifications and new hashes never wait for each other, so a
 * flood of sign-ups or password changes cannot queue its work in front of
 * logins. New hashes wait in a bounded queue; past it `hash` throws
 * `service_unavailable` with a Retry-After (503) at once, instead of letting
 * anyone pile up work without bound.
 */
export function createArgon2Hasher(options: Argon2HasherOptions = {}): PasswordHasher {
  const params = options.params ?? OWASP_MIN;
  // argon2 is CPU-bound: with as many hashes as cores in flight, the event
  // loop waits for a core. Logins leave one core to it, which keeps reads fast
  // during a login burst; new hashes take one more lane, so only a login burst
  // beside a sign-up flood keeps every core busy.
  const verifyLane = createLane(options.verifyConcurrency ?? Math.max(1, availableParallelism() - 1));
  const retryAfter = options.retryAfterSeconds ?? 2;
  const hashLane = createLane(options.hashConcurrency ?? 1, {
    max: options.hashQueue ?? 32,
    refuse: () =>
      new MarketplaceError("service_unavailable", "Too many passwords are being set; try again shortly", {
        retryAfter,
      }),
  });
  return {
    async hash(password: string): Promise<string> {
      const salt = randomBytes(16);
      const tag = await hashLane(() => deriveKey(password, salt, params));
      return `$argon2id$v=19$m=${params.memoryKiB},t=${params.passes},p=${params.parallelism}$${b64(salt)}$${b64(tag)}`;
    },
    async verify(hash: string, password: string): Promise<boolean> {
      const m = PHC.exec(hash);
      if (!m) return false;
      const stored = Buffer.from(m[5]!, "base64");
      const own = { memoryKiB: Number(m[1]), passes: Number(m[2]), parallelism: Number(m[3]) };
      const salt = Buffer.from(m[4]!, "base64");
      const tag = await verifyLane(() => deriveKey(password, salt, own, stored.length));
      return tag.length === stored.length && timingSafeEqual(tag, stored);
    },
    needsRehash(hash: string): boolean {
      const m = PHC.exec(hash);
      if (!m) return true;
      return (
        Number(m[1]) < params.memoryKiB || Number(m[2]) < params.passes || Number(m[3]) < params.parallelism
      );
    },
  };
}

function deriveKey(password: string, salt: Buffer, p: Argon2Params, tagLength = 32): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    argon2(
      "argon2id",
      {
        message: password,
        nonce: salt,
        parallelism: p.parallelism,
        tagLength,
        memory: p.memoryKiB,
        passes: p.passes,
      },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

function b64(bytes: Buffer): string {
  return bytes.toString("base64").replace(/=+$/, "");
}

import { argon2, randomBytes, timingSafeEqual } from "node:crypto";
import { availableParallelism } from "node:os";
import type { PasswordHasher } from "@psm/core";

/** argon2id parameters; OWASP's minimum: 19 MiB, 2 passes, 1 lane. */
export interface Argon2Params {
  memoryKiB: number;
  passes: number;
  parallelism: number;
}

export const OWASP_MIN: Argon2Params = { memoryKiB: 19_456, passes: 2, parallelism: 1 };

const PHC = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

/**
 * argon2id through Node's native, asynchronous crypto.argon2: hashing runs on
 * libuv's thread pool, never on the event loop. Hashes are PHC strings, so the
 * parameters can be raised later and old hashes upgraded at login.
 */
export function createArgon2Hasher(
  params: Argon2Params = OWASP_MIN,
  maxConcurrent = Math.max(1, availableParallelism() - 1),
): PasswordHasher {
  // argon2 is CPU-bound: with as many hashes as cores in flight, the event
  // loop waits for a core. Leaving one core free keeps reads fast during a
  // login burst, at the cost of some logins per second.
  const gate = createGate(maxConcurrent);
  const derive = (password: string, salt: Buffer, p: Argon2Params, tagLength?: number) =>
    gate(() => deriveKey(password, salt, p, tagLength));
  return {
    async hash(password: string): Promise<string> {
      const salt = randomBytes(16);
      const tag = await derive(password, salt, params);
      return `$argon2id$v=19$m=${params.memoryKiB},t=${params.passes},p=${params.parallelism}$${b64(salt)}$${b64(tag)}`;
    },
    async verify(hash: string, password: string): Promise<boolean> {
      const m = PHC.exec(hash);
      if (!m) return false;
      const stored = Buffer.from(m[5]!, "base64");
      const own = { memoryKiB: Number(m[1]), passes: Number(m[2]), parallelism: Number(m[3]) };
      const tag = await derive(password, Buffer.from(m[4]!, "base64"), own, stored.length);
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

/** Runs at most `limit` tasks at once; the rest wait in arrival order. */
function createGate(limit: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (active >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try {
      return await task();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}

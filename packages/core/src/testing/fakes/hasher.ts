import type { PasswordHasher, VerifyPurpose } from "../../ports/password-hasher.js";
import { sha256Hex } from "../../support/crypto.js";

/** A PasswordHasher that counts its calls. */
export interface FakeHasher extends PasswordHasher {
  readonly calls: { hash: number; verify: number };
  /** The purpose of each `verify` call, in order (`"login"` when none was given). */
  readonly purposes: VerifyPurpose[];
}

/** The password behind buildUser's default hash. */
export const TEST_PASSWORD = "correct horse battery";

/** The fake hasher's hash of `password`: `fake$` (today's scheme) or `old$` (one to upgrade). */
export function fakeHash(password: string, scheme: "fake" | "old" = "fake"): string {
  return `${scheme}$${sha256Hex(password)}`;
}

/**
 * A cheap hasher for tests. Hashes are `fake$<sha256>`; `old$<sha256>` also
 * verifies but needs a rehash, so tests can exercise upgrade at login.
 */
export function createFakeHasher(): FakeHasher {
  const calls = { hash: 0, verify: 0 };
  const purposes: VerifyPurpose[] = [];
  return {
    calls,
    purposes,
    async hash(password: string) {
      calls.hash++;
      return fakeHash(password);
    },
    async verify(hash: string, password: string, purpose: VerifyPurpose = "login") {
      calls.verify++;
      purposes.push(purpose);
      const scheme = hash.startsWith("old$") ? "old" : "fake";
      return hash === fakeHash(password, scheme);
    },
    needsRehash(hash: string) {
      return hash.startsWith("old$");
    },
  };
}

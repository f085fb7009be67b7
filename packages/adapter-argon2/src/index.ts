/**
 * argon2id password hashing for `@psm/core`'s `PasswordHasher` port, on Node's
 * native, asynchronous `crypto.argon2` (Node.js 24.7 or later): no native addon,
 * no work on the event loop.
 *
 * `createArgon2Hasher(options?)` stores PHC strings at OWASP's minimum by default,
 * verifies any argon2id PHC string by its own parameters, and runs logins,
 * confirmations (change password) and new hashes in separate bounded lanes.
 */
export { type Argon2HasherOptions, createArgon2Hasher, OWASP_MIN } from "./argon2-hasher.js";
export type { Argon2Params } from "./phc.js";

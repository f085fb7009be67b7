/**
 * Hashes passwords into PHC strings. Implementations must not block the event
 * loop (argon2id through Node's asynchronous crypto.argon2 in apps/server).
 */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** False for a wrong password or a malformed hash; never throws for those. */
  verify(hash: string, password: string): Promise<boolean>;
  /** Whether the hash was made with weaker parameters than today's and should be redone at login. */
  needsRehash(hash: string): boolean;
}

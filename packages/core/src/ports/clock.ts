/** The source of time; use cases read it, repositories never do. */
export interface Clock {
  now(): Date;
}
/** Unique ids; UUIDv7 for `at`, strictly increasing within a process. */
export interface IdGenerator {
  newId(at: Date): string;
}
/** Cryptographically secure random bytes. */
export interface RandomSource {
  bytes(length: number): Uint8Array;
}

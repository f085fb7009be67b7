import type { IdGenerator, RandomSource } from "../ports/clock.js";

/**
 * UUIDv7 (RFC 9562): 48-bit milliseconds, then random bits. Within one
 * process ids are strictly increasing even within a millisecond or when the
 * clock steps back, so id order is creation order.
 */
export function createUuidV7Generator(random: RandomSource): IdGenerator {
  let lastMs = -1;
  let counter = 0; // 12-bit rand_a used as a sequence within one millisecond
  return {
    newId(at: Date): string {
      let ms = at.getTime();
      if (ms <= lastMs) {
        ms = lastMs;
        counter++;
        if (counter > 0xfff) {
          ms = lastMs + 1;
          counter = random.bytes(1)[0]! & 0x7f;
        }
      } else {
        counter = random.bytes(1)[0]! & 0x7f; // leave room to count up
      }
      lastMs = ms;
      const bytes = random.bytes(16);
      const hi = Math.floor(ms / 2 ** 16);
      bytes[0] = (hi >>> 24) & 0xff;
      bytes[1] = (hi >>> 16) & 0xff;
      bytes[2] = (hi >>> 8) & 0xff;
      bytes[3] = hi & 0xff;
      bytes[4] = (ms >>> 8) & 0xff;
      bytes[5] = ms & 0xff;
      bytes[6] = 0x70 | ((counter >>> 8) & 0x0f);
      bytes[7] = counter & 0xff;
      bytes[8] = 0x80 | (bytes[8]! & 0x3f);
      const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    },
  };
}

/** The millisecond timestamp inside a UUIDv7. */
export function uuidV7Time(id: string): number {
  return Number.parseInt(id.replace(/-/g, "").slice(0, 12), 16);
}

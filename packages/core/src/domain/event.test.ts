import { describe, expect, it } from "vitest";
import { newEventId } from "./event.js";

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** The ULID text of 80 bits, the plain way: one big integer, 5 bits at a time. */
function reference(random: Uint8Array): string {
  let bits = 0n;
  for (const byte of random) bits = (bits << 8n) | BigInt(byte);
  let text = "";
  for (let i = 0; i < 16; i++) {
    text = CROCKFORD[Number(bits & 31n)] + text;
    bits >>= 5n;
  }
  return text;
}

describe("newEventId", () => {
  it("is evt_ and a ULID of the instant and the 10 random bytes", () => {
    const random = Uint8Array.of(0xff, 0x00, 0x80, 0x7f, 0x01, 0xde, 0xad, 0xbe, 0xef, 0x42);
    // Worked out independently (Python's int.from_bytes over the same bytes).
    expect(newEventId(new Date(1_700_000_000_000), random)).toBe("evt_01HF7YAT00ZW080ZR1VTPVXVT2");
    expect(newEventId(new Date(0), new Uint8Array(10).fill(255))).toBe("evt_0000000000ZZZZZZZZZZZZZZZZ");
  });

  it("encodes every byte at its place, as one 80-bit number would", () => {
    for (let seed = 0; seed < 500; seed++) {
      const random = Uint8Array.from({ length: 10 }, (_, i) => (seed * 131 + i * 977 + seed * i * 17) % 256);
      expect(newEventId(new Date(seed * 1_000_003), random).slice(14)).toBe(reference(random));
    }
  });

  it("sorts by time", () => {
    const random = new Uint8Array(10).fill(7);
    expect(newEventId(new Date(1_000), random) < newEventId(new Date(1_001), random)).toBe(true);
  });

  it("refuses fewer than 10 random bytes", () => {
    expect(() => newEventId(new Date(0), new Uint8Array(9))).toThrow(RangeError);
  });
});

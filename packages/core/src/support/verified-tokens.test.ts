import { describe, expect, it } from "vitest";
import { createVerifiedTokens } from "./verified-tokens.js";

describe("createVerifiedTokens", () => {
  it("answers a kept token from nbf until before exp, and nothing for one never kept", () => {
    const kept = createVerifiedTokens<string>();
    kept.set("t", "claims", 200, 100);
    expect(kept.get("t", 99.5)).toBeUndefined();
    expect(kept.get("t", 100)).toBe("claims");
    expect(kept.get("t", 199.9)).toBe("claims");
    expect(kept.get("t", 200)).toBeUndefined();
    // Expired is gone for good, even if the clock goes back.
    expect(kept.get("t", 150)).toBeUndefined();
    expect(kept.get("u", 150)).toBeUndefined();
  });

  it("keeps at most its bound, dropping the token verified longest ago", () => {
    const kept = createVerifiedTokens<number>(3);
    for (let i = 0; i < 5; i++) kept.set(`t${i}`, i, 1000);
    expect([0, 1, 2, 3, 4].map((i) => kept.get(`t${i}`, 0))).toEqual([undefined, undefined, 2, 3, 4]);
  });

  it("never keeps a token longer than 4,096 characters", () => {
    const kept = createVerifiedTokens<number>();
    kept.set("x".repeat(4097), 1, 1000);
    expect(kept.get("x".repeat(4097), 0)).toBeUndefined();
  });
});

import { describe, expect, it } from "vitest";
import { defaultDisplayName, isDefaultDisplayName } from "./user.js";

describe("isDefaultDisplayName", () => {
  it("recognises every default name and no chosen one", () => {
    let n = 0;
    const random = { bytes: (k: number) => new Uint8Array(k).fill(++n * 37) };
    for (let i = 0; i < 5; i++) expect(isDefaultDisplayName(defaultDisplayName(random))).toBe(true);
    for (const chosen of ["Ada", "Member", "Member 2d6c72 GmbH", "member 2d6c72", "Member 2D6C72"]) {
      expect(isDefaultDisplayName(chosen), chosen).toBe(false);
    }
  });
});

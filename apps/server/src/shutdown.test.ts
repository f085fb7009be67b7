import { describe, expect, it } from "vitest";
import { settlesWithin } from "./shutdown.js";

describe("settlesWithin", () => {
  it("is true once the work settles, failed or not, and false for work that never does", async () => {
    expect(await settlesWithin(Promise.resolve(), 60_000)).toBe(true);
    expect(await settlesWithin(Promise.reject(new Error("lost")), 60_000)).toBe(true);
    expect(await settlesWithin(new Promise(() => {}), 1)).toBe(false);
  });
});

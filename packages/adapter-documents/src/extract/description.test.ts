import { describe, expect, it } from "vitest";
import { extractDescription } from "./description.js";

describe("extractDescription", () => {
  it("drops the title line and joins lines broken inside a paragraph", () => {
    const pages = [["My Service", "We build web apps for", "small teams.", "Contact us."]];
    expect(extractDescription(pages, "My Service").value).toBe(
      "We build web apps for small teams.\nContact us.",
    );
  });

  it("is bounded to 20000 characters", () => {
    const pages = [Array.from({ length: 3000 }, (_, i) => `Line ${i} of a very long brochure.`)];
    expect(extractDescription(pages, null).value.length).toBeLessThanOrEqual(20_000);
  });
});

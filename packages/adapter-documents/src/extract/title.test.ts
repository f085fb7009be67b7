import { describe, expect, it } from "vitest";
import { extractTitle } from "./title.js";

describe("extractTitle", () => {
  it("prefers the visible heading to the metadata title", () => {
    const title = extractTitle(["SOMETHING ELSE", "Body text that follows."], "Penetration Testing Services");
    expect(title).toMatchObject({ field: { value: "SOMETHING ELSE" }, line: "SOMETHING ELSE" });
  });

  it("takes meaningful metadata when no line reads as a heading", () => {
    const body = ["we review your cloud accounts against the benchmarks, and report what we found."];
    const title = extractTitle(body, "Penetration Testing Services");
    expect(title.field).toMatchObject({ value: "Penetration Testing Services", confidence: 0.6 });
    expect(title.line).toBeNull();
  });

  it("ignores file-name and placeholder metadata", () => {
    expect(extractTitle(["# Real Heading", "Body."], "Microsoft Word - brochure.docx").field.value).toBe(
      "Real Heading",
    );
    expect(extractTitle(["Real Heading", "Body."], "untitled").field.value).toBe("Real Heading");
  });

  it("takes the most heading-like of the first lines, not contact or price lines", () => {
    const lines = ["hello@acme.io", "Price: $500", "DATA WAREHOUSE SETUP", "We set up your analytics stack."];
    expect(extractTitle(lines)).toMatchObject({
      field: { value: "DATA WAREHOUSE SETUP" },
      line: "DATA WAREHOUSE SETUP",
    });
  });

  it("strips markdown and a trailing colon", () => {
    expect(extractTitle(["## Services:", "text"]).field.value).toBe("Services");
  });

  it("falls back to the first sentence, bounded to 200 characters", () => {
    const long = `${"word ".repeat(80)}end. Second sentence.`;
    const title = extractTitle([long]);
    expect(title.field.value.length).toBeLessThanOrEqual(200);
    expect(title.field.confidence).toBeLessThan(0.5);
    expect(title.line).toBeNull(); // the rest of the line stays in the description
    expect(extractTitle([]).field.value).toBe("Untitled document");
  });
});

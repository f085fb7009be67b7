import { CATEGORY_VALUES } from "@psm/core";
import { describe, expect, it } from "vitest";
import { classifyCategory, tokenize } from "./category.js";
import { CATEGORY_VOCABULARY, DEFAULT_CATEGORY } from "./category-vocabulary.js";

describe("tokenize", () => {
  it("keeps words like c++, p&l and splits on punctuation; drops e-mail addresses and links", () => {
    expect(tokenize("C++ & P&L, ci/cd go-to-market see security@x.io https://seo.example")).toEqual([
      "c++",
      "p&l",
      "ci",
      "cd",
      "go",
      "to",
      "market",
      "see",
    ]);
  });
});

describe("classifyCategory", () => {
  it("has vocabulary for every category", () => {
    for (const category of CATEGORY_VALUES) {
      expect(Object.keys(CATEGORY_VOCABULARY[category].terms).length).toBeGreaterThan(20);
    }
  });

  it.each([
    [
      "Penetration testing",
      "We find vulnerabilities in your web application before attackers do.",
      "cybersecurity",
    ],
    ["Bookkeeping", "Monthly accounting, VAT returns and cash flow reports in Xero.", "financial-services"],
    ["Hiring help", "Our recruiters source candidates and run interviews for your vacancies.", "staffing-hr"],
    ["Figma work", "Wireframes, prototypes and usability tests for your app.", "ux-ui-design"],
    [
      "LLM assistants",
      "We fine-tune large language models and build chatbots with RAG.",
      "artificial-intelligence",
    ],
  ] as const)("%s -> %s", (title, body, expected) => {
    expect(classifyCategory(title, body).value).toBe(expected);
  });

  it("counts title words again", () => {
    const body = "We review contracts and build dashboards.";
    expect(classifyCategory("Legal contract review", body).value).toBe("legal-consulting");
    expect(classifyCategory("Power BI dashboards", body).value).toBe("data-analytics");
  });

  it("weighs negative evidence: interviews with users are UX research, not recruiting", () => {
    const body =
      "We run user interviews and usability tests with participants, then synthesise interview notes.";
    expect(classifyCategory("Research", body).value).toBe("ux-ui-design");
  });

  it("answers the default with low confidence when nothing speaks for a category", () => {
    const result = classifyCategory("Hello", "We are a friendly team from Berlin.");
    expect(result).toMatchObject({ value: DEFAULT_CATEGORY, confidence: 0.1 });
  });
});

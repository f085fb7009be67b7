/**
 * OWASP API10:2023 Unsafe Consumption of APIs. What the PDF library returns is
 * bounded like user input, and the optional model-backed extractor's answers
 * (a local OpenAI-compatible stub plays the model) are validated: garbage,
 * oversized fields, a category outside the ten, a negative price, a huge or
 * failing answer all fall back to the heuristic result.
 */
import { createDocumentParser } from "@psm/adapter-documents";
import { CATEGORY_VALUES, type DocumentParser } from "@psm/core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { useDocumentParser } from "./support/document-parser.js";
import { makePdf, uploadForm } from "./support/files.js";
import { type Loopback, startLoopback } from "./support/loopback.js";
import { target } from "./support/target.js";

const OFFER = `Penetration testing for web applications

We test your web application against the OWASP Top 10 in a two-week engagement.
Price: EUR 4,800 per application.
Contact: sales@pentest.example`;

interface Parsed {
  title: string;
  description: string;
  category: string;
  price: number | null;
  contact_email: string | null;
  fields: Record<string, { value: unknown; source: string | null }>;
}

async function parseThroughApp(parser: DocumentParser, file: FormData): Promise<Parsed> {
  const t = target({ documents: parser });
  const s = await t.signUp();
  const res = await t.request("POST", "/api/parse-pdf", { token: s.token, raw: file });
  expect(res.status).toBe(200);
  return t.json<Parsed>(res);
}

function expectBounded(parsed: Parsed): void {
  expect(parsed.title.length).toBeLessThanOrEqual(200);
  expect(parsed.description.length).toBeLessThanOrEqual(20_000);
  expect(CATEGORY_VALUES).toContain(parsed.category);
  expect(parsed.price === null || (Number.isFinite(parsed.price) && parsed.price >= 0)).toBe(true);
  for (const field of Object.values(parsed.fields)) {
    if (field.source !== null) expect(field.source.length).toBeLessThanOrEqual(20_000);
  }
}

describe("the PDF library's output is bounded", () => {
  const parser = useDocumentParser();

  test("a PDF holding ~240 000 characters of text and a 5000-character title", async () => {
    const line = "Managed detection and response, around the clock, for every endpoint you own. ".repeat(2);
    const pages = Array.from({ length: 6 }, () => Array.from({ length: 250 }, () => line));
    const pdf = makePdf({ pages, title: "Security ".repeat(560) });
    const parsed = await parseThroughApp(parser, uploadForm(pdf, "flood.pdf", "application/pdf"));
    expectBounded(parsed);
    expect(parsed.description.length).toBeGreaterThan(1_000);
    expect(JSON.stringify(parsed).length).toBeLessThan(100_000);
  });
});

describe("the model-backed extractor's answers are validated", () => {
  let model: Loopback;
  let reply: (body: string) => { status: number; text: string } | null = () => null;
  const heuristic = useDocumentParser();
  let expected: Parsed;

  const completion = (content: unknown) =>
    JSON.stringify({
      choices: [{ message: { content: typeof content === "string" ? content : JSON.stringify(content) } }],
    });
  const valid = {
    title: "Web penetration test",
    category: "cybersecurity",
    price: 4800,
    contact_email: "sales@pentest.example",
  };

  beforeAll(async () => {
    model = await startLoopback((_req, res, body) => {
      const answer = reply(body);
      if (answer === null) return; // never answers: the extractor's time bound must end the wait
      res.writeHead(answer.status, { "content-type": "application/json" }).end(answer.text);
    });
    expected = await parseThroughApp(heuristic, uploadForm(OFFER, "offer.txt", "text/plain"));
  });
  afterAll(() => model.close());

  // A generous bound, so a slow machine never turns a good answer into a fallback;
  // only the silent model waits for it, and a short one is enough there.
  async function withModel(answer: typeof reply, timeoutMs = 15_000): Promise<Parsed> {
    reply = answer;
    const ai = { url: `${model.url}/v1`, key: "test-key", model: "stub", timeoutMs };
    const parser = createDocumentParser({ ai });
    try {
      const before = model.hits.length;
      const parsed = await parseThroughApp(parser, uploadForm(OFFER, "offer.txt", "text/plain"));
      expect(model.hits.length - before).toBe(1);
      expect(model.hits.at(-1)).toBe("/v1/chat/completions");
      return parsed;
    } finally {
      await parser.close();
    }
  }

  test("a valid answer is used (so the stub really is consulted)", async () => {
    const parsed = await withModel(() => ({ status: 200, text: completion(valid) }));
    expect(parsed.title).toBe("Web penetration test");
    expectBounded(parsed);
  });

  const silent: typeof reply = () => null;
  const hostile: [string, typeof reply][] = [
    ["garbage", () => ({ status: 200, text: "<html>not json" })],
    ["content that is not JSON", () => ({ status: 200, text: completion("Sure! Here is the listing: ...") })],
    [
      "an oversized title",
      () => ({ status: 200, text: completion({ ...valid, title: "T".repeat(10_000) }) }),
    ],
    [
      "a category outside the ten",
      () => ({ status: 200, text: completion({ ...valid, category: "weapons" }) }),
    ],
    ["a negative price", () => ({ status: 200, text: completion({ ...valid, price: -4800 }) })],
    ["a price that is not a number", () => ({ status: 200, text: completion({ ...valid, price: "1e400" }) })],
    [
      "an address that is not one",
      () => ({ status: 200, text: completion({ ...valid, contact_email: "<script>" }) }),
    ],
    [
      "a 2 MiB answer",
      () => ({ status: 200, text: completion({ ...valid, title: "x".repeat(2 * 1024 * 1024) }) }),
    ],
    ["an error status", () => ({ status: 500, text: completion(valid) })],
    ["no answer within the time bound", silent],
  ];

  for (const [what, answer] of hostile) {
    test(`${what}: the heuristic result, bounded`, async () => {
      const parsed = await withModel(answer, answer === silent ? 500 : undefined);
      expect(parsed).toEqual(expected);
      expectBounded(parsed);
    });
  }
});

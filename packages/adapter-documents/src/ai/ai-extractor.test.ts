import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createDocumentParser } from "../document-parser.js";
import { askModel } from "./ai-extractor.js";

type Reply = (req: IncomingMessage, res: ServerResponse) => void;

const completion = (content: string) =>
  JSON.stringify({ choices: [{ message: { role: "assistant", content } }] });
const answer = (fields: Record<string, unknown>) => (_: IncomingMessage, res: ServerResponse) => {
  res.setHeader("content-type", "application/json");
  res.end(completion(JSON.stringify(fields)));
};
const GOOD = { title: "Model Title", category: "data-analytics", price: 4200, contact_email: "team@acme.io" };

let server: Server;
let url: string;
let reply: Reply;
let requests: { auth: string | undefined; body: string }[];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on("end", () => {
      requests.push({ auth: req.headers.authorization, body });
      reply(req, res);
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});
beforeEach(() => {
  requests = [];
  reply = answer(GOOD);
});

const options = () => ({ url, key: "sk-test", model: "stub-model", timeoutMs: 300 });
const DOC = "# Consulting\nWe advise on strategy. Contact: team@acme.io or hello@acme.io. Fee: $900.";

describe("askModel", () => {
  it("posts the document to /chat/completions and returns a validated answer", async () => {
    await expect(askModel(options(), DOC)).resolves.toEqual(GOOD);
    const sent = JSON.parse(requests[0]?.body ?? "{}");
    expect(requests[0]?.auth).toBe("Bearer sk-test");
    expect(sent.model).toBe("stub-model");
    expect(JSON.stringify(sent.messages)).toContain("We advise on strategy");
  });

  it("accepts an answer wrapped in a markdown fence", async () => {
    reply = (_, res) => res.end(completion(`\`\`\`json\n${JSON.stringify(GOOD)}\n\`\`\``));
    await expect(askModel(options(), DOC)).resolves.toEqual(GOOD);
  });

  it.each([
    ["malformed JSON", (_: IncomingMessage, res: ServerResponse) => res.end(completion("{not json"))],
    ["an unknown category", answer({ ...GOOD, category: "plumbing" })],
    ["a negative price", answer({ ...GOOD, price: -5 })],
    ["a price given as text", answer({ ...GOOD, price: "900" })],
    ["an invalid address", answer({ ...GOOD, contact_email: "not an address" })],
    ["an over-long title", answer({ ...GOOD, title: "x".repeat(201) })],
    ["an error status", (_: IncomingMessage, res: ServerResponse) => res.writeHead(500).end("{}")],
    ["no choices", (_: IncomingMessage, res: ServerResponse) => res.end(JSON.stringify({ choices: [] }))],
    [
      "a time-out",
      (_: IncomingMessage, res: ServerResponse) => setTimeout(() => res.end(completion("{}")), 1_000),
    ],
  ])("returns null for %s", async (_, bad) => {
    reply = bad;
    await expect(askModel(options(), DOC)).resolves.toBeNull();
  });
});

describe("createDocumentParser with ai", () => {
  const parse = async () => {
    const parser = createDocumentParser({ ai: options() });
    try {
      return await parser.parse({ bytes: new TextEncoder().encode(DOC) });
    } finally {
      await parser.close();
    }
  };

  it("uses a good answer, keeping the document's own description", async () => {
    const parsed = await parse();
    expect(parsed).toMatchObject({ title: "Model Title", category: "data-analytics", price: 4200 });
    expect(parsed.contactEmail).toBe("team@acme.io");
    expect(parsed.description).toContain("We advise on strategy");
    expect(parsed.fields.category).toMatchObject({ value: "data-analytics", source: "model answer" });
  });

  it("does not believe an address that is not in the document", async () => {
    reply = answer({ ...GOOD, contact_email: "someone@elsewhere.com" });
    expect((await parse()).contactEmail).toBe("team@acme.io");
  });

  it("falls back to the heuristic fields on a bad answer or a time-out", async () => {
    reply = answer({ ...GOOD, category: "plumbing" });
    expect(await parse()).toMatchObject({
      title: "Consulting",
      category: "strategic-consulting",
      price: 900,
    });
    reply = (_, res) => setTimeout(() => res.end(completion(JSON.stringify(GOOD))), 1_000);
    expect(await parse()).toMatchObject({ title: "Consulting", price: 900 });
  });
});

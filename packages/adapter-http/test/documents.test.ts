import type { ParsedDocument } from "@psm/core";
import { describe, expect, test } from "vitest";
import { expectError, type Harness, harness } from "./helpers.js";

function upload(content: string | Uint8Array<ArrayBuffer>, name = "offer.txt", field = "file"): FormData {
  const form = new FormData();
  form.set(field, new File([content], name, { type: "text/plain" }));
  return form;
}

/** Uploads `raw` to POST /api/parse-pdf with `token` as the bearer. */
function parse(
  h: Harness,
  token: string | undefined,
  raw: RequestInit["body"],
  headers?: Record<string, string>,
) {
  return h.call("POST", "/api/parse-pdf", { token, raw, headers });
}

describe("POST /api/parse-pdf", () => {
  test("200 with the extracted fields, per-field confidence and source", async () => {
    const h = harness();
    const s = await h.signUp();
    const key = await h.apiKey(s);
    const res = await h.call("POST", "/api/parse-pdf", { key, raw: upload("Data platform audit") });
    expect(res.status).toBe(200);
    const body = await h.json<Record<string, unknown>>(res);
    expect(body).toMatchObject({
      title: "Data platform audit",
      category: "data-analytics",
      price: 4800,
      price_unit: "fixed",
      contact_email: "sales@example.com",
      fields: {
        title: { value: "Data platform audit", confidence: 0.9 },
        contact_email: { value: "sales@example.com" },
      },
    });
    expect(Object.keys(body.fields as object).sort()).toEqual([
      "category",
      "contact_email",
      "description",
      "price",
      "price_unit",
      "title",
    ]);
    expect(h.deps.documents.inputs[0]?.filename).toBe("offer.txt");
    expect(new TextDecoder().decode(h.deps.documents.inputs[0]?.bytes)).toBe("Data platform audit");
  });

  test("401 anonymous; 400 without multipart or without a file", async () => {
    const h = harness();
    expect((await parse(h, undefined, upload("x"))).status).toBe(401);
    const s = await h.signUp();
    const json = await h.call("POST", "/api/parse-pdf", { token: s.token, body: { file: "x" } });
    expect(json.status).toBe(400);
    expect(await json.json()).toMatchObject({ code: "invalid_input" });
    const noFile = await parse(h, s.token, upload("x", "a.txt", "other"));
    await expectError(noFile, 400, { error: "file: is required", code: "invalid_input" });
    const asText = new FormData();
    asText.set("file", "just a string");
    expect((await parse(h, s.token, asText)).status).toBe(400);
  });

  test("413 for a file over the upload limit", async () => {
    const h = harness("strict", { maxUploadBytes: 1024 });
    const s = await h.signUp();
    const res = await parse(h, s.token, upload("z".repeat(2048)));
    await expectError(res, 413, { error: "Payload too large", code: "payload_too_large" });
    const huge = await parse(h, s.token, upload("z".repeat(200 * 1024)));
    expect(huge.status).toBe(413);
  });

  test("the default limit is 10 MiB", async () => {
    const h = harness();
    const s = await h.signUp();
    const res = await parse(h, s.token, upload(new Uint8Array(10 * 1024 * 1024 + 1)));
    expect(res.status).toBe(413);
  });

  test("passes the file's bytes, name and declared type; other parts of the form are skipped", async () => {
    const h = harness();
    const s = await h.signUp();
    const form = new FormData();
    form.set("note", "first");
    form.set("file", new File(["Offer text"], "brochure.pdf", { type: "application/pdf" }));
    form.set("after", "last");
    expect((await parse(h, s.token, form)).status).toBe(200);
    const input = h.deps.documents.inputs[0];
    expect(input?.filename).toBe("brochure.pdf");
    expect(input?.declaredType).toBe("application/pdf");
    expect(new TextDecoder().decode(input?.bytes)).toBe("Offer text");
  });

  test("400 for a malformed multipart body, and for one of too many parts, before any parsing", async () => {
    const h = harness();
    const s = await h.signUp();
    const send = (body: string) =>
      parse(h, s.token, body, { "Content-Type": "multipart/form-data; boundary=b" });
    const broken = await send(
      '--b\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nno end',
    );
    expect(await broken.json()).toEqual({ error: "Malformed multipart body", code: "invalid_input" });
    // A hundred thousand tiny fields: a general form parser spends a second on them.
    const flood = `${'--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n'.repeat(100_000)}--b--\r\n`;
    const many = await send(flood);
    expect(many.status).toBe(400);
    expect(await many.json()).toMatchObject({ error: expect.stringMatching(/more than 32 parts/) });
    expect(h.deps.documents.inputs).toHaveLength(0);
  });
});

/** Holds every parse until released, to see what is refused while uploads are in progress. */
function holdParses(h: Harness): { held: () => number; releaseAll: () => void } {
  const gates: (() => void)[] = [];
  const parse = h.marketplace.documents.parse;
  h.marketplace.documents.parse = async (actor, input): Promise<ParsedDocument> => {
    await new Promise<void>((open) => gates.push(open));
    return parse(actor, input);
  };
  return {
    held: () => gates.length,
    releaseAll: () => {
      for (const open of gates.splice(0)) open();
    },
  };
}

const offer = () => upload("Offer");

describe("POST /api/parse-pdf: shares of the upload capacity", () => {
  test("one account has two uploads in progress at most (429 beyond); others still get theirs", async () => {
    const h = harness();
    const greedy = await h.signUp();
    const other = await h.signUp();
    const gates = holdParses(h);
    const held = [1, 2].map(() => parse(h, greedy.token, offer()));
    while (gates.held() < 2) await new Promise((resolve) => setImmediate(resolve));
    const third = await parse(h, greedy.token, offer());
    expect(third.status).toBe(429);
    expect(third.headers.get("retry-after")).toBe("5");
    expect(await third.json()).toMatchObject({ code: "rate_limited" });
    const theirs = parse(h, other.token, offer());
    while (gates.held() < 3) await new Promise((resolve) => setImmediate(resolve));
    gates.releaseAll();
    expect((await Promise.all([...held, theirs])).map((r) => r.status)).toEqual([200, 200, 200]);
  });

  test("the process parses maxConcurrentUploads at once: the next upload that arrived whole is 503", async () => {
    const h = harness("strict", { maxConcurrentUploads: 2 });
    const sessions = await Promise.all([h.signUp(), h.signUp(), h.signUp()]);
    const gates = holdParses(h);
    const held = sessions.slice(0, 2).map((s) => parse(h, s.token, offer()));
    while (gates.held() < 2) await new Promise((resolve) => setImmediate(resolve));
    const next = await parse(h, sessions[2]?.token, offer());
    expect(next.status).toBe(503);
    expect(next.headers.get("retry-after")).toBe("5");
    expect(await next.json()).toMatchObject({ code: "service_unavailable" });
    gates.releaseAll();
    expect((await Promise.all(held)).map((r) => r.status)).toEqual([200, 200]);
  });
});

import { describe, expect, test } from "vitest";
import { harness } from "./helpers.js";

function upload(content: string | Uint8Array<ArrayBuffer>, name = "offer.txt", field = "file"): FormData {
  const form = new FormData();
  form.set(field, new File([content], name, { type: "text/plain" }));
  return form;
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
      "title",
    ]);
    expect(h.deps.documents.inputs[0]?.filename).toBe("offer.txt");
    expect(new TextDecoder().decode(h.deps.documents.inputs[0]?.bytes)).toBe("Data platform audit");
  });

  test("401 anonymous; 400 without multipart or without a file", async () => {
    const h = harness();
    expect((await h.call("POST", "/api/parse-pdf", { raw: upload("x") })).status).toBe(401);
    const s = await h.signUp();
    const json = await h.call("POST", "/api/parse-pdf", { token: s.token, body: { file: "x" } });
    expect(json.status).toBe(400);
    expect(await json.json()).toMatchObject({ code: "invalid_input" });
    const noFile = await h.call("POST", "/api/parse-pdf", {
      token: s.token,
      raw: upload("x", "a.txt", "other"),
    });
    expect(noFile.status).toBe(400);
    expect(await noFile.json()).toEqual({ error: "file: is required", code: "invalid_input" });
    const asText = new FormData();
    asText.set("file", "just a string");
    expect((await h.call("POST", "/api/parse-pdf", { token: s.token, raw: asText })).status).toBe(400);
  });

  test("413 for a file over the upload limit", async () => {
    const h = harness("strict", { maxUploadBytes: 1024 });
    const s = await h.signUp();
    const res = await h.call("POST", "/api/parse-pdf", { token: s.token, raw: upload("z".repeat(2048)) });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: "Payload too large", code: "payload_too_large" });
    const huge = await h.call("POST", "/api/parse-pdf", {
      token: s.token,
      raw: upload("z".repeat(200 * 1024)),
    });
    expect(huge.status).toBe(413);
  });

  test("the default limit is 10 MiB", async () => {
    const h = harness();
    const s = await h.signUp();
    const res = await h.call("POST", "/api/parse-pdf", {
      token: s.token,
      raw: upload(new Uint8Array(10 * 1024 * 1024 + 1)),
    });
    expect(res.status).toBe(413);
  });
});

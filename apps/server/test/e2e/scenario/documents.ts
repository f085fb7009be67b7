import { describe, expect, it } from "vitest";
import { CATEGORIES } from "../../support/contract.js";
import { expectError, expectStatus } from "../../support/http.js";
import { accountsBeforeAll } from "../../support/scenario.js";
import type { World } from "../../support/world.js";

const BROCHURE = [
  "# Penetration Testing for Web Applications",
  "",
  "Our security team runs a two-week penetration test of your web application and API,",
  "covering the OWASP Top 10, authentication flaws and cloud misconfiguration.",
  "",
  "Price: $4,800 per engagement.",
  "Contact: pentest@shieldworks.io",
].join("\n");

/** One form with `bytes` as the file field (or no file at all). */
function upload(bytes: Uint8Array<ArrayBuffer> | null, name = "brochure.txt", type = "text/plain"): FormData {
  const form = new FormData();
  if (bytes === null) form.append("note", "no file here");
  else form.append("file", new Blob([bytes], { type }), name);
  return form;
}

/** POST /api/parse-pdf over real multipart: the fields of a text file, and the refusals. */
export function documentScenario(world: () => World): void {
  describe("parse-pdf", () => {
    const [user] = accountsBeforeAll(world, "uploader");

    it("extracts the five fields of a small text file, the category one of the ten", async () => {
      const reply = await world().api.post("/api/parse-pdf", {
        apiKey: user.key,
        form: upload(new TextEncoder().encode(BROCHURE)),
      });
      expectStatus(reply, 200);
      expect(reply.body).toMatchObject({
        title: expect.stringMatching(/\S/),
        description: expect.stringMatching(/\S/),
        category: expect.any(String),
      });
      expect(CATEGORIES.map((category) => category.value)).toContain(reply.body.category);
      expect(reply.body.price === null || typeof reply.body.price === "number").toBe(true);
      expect(reply.body.contact_email === null || typeof reply.body.contact_email === "string").toBe(true);
      // A plain brochure like this one is what extraction exists for: its fields are found.
      expect(reply.body).toMatchObject({ price: 4800, contact_email: "pentest@shieldworks.io" });
    });

    it("accepts a JWT too, and refuses anonymous callers with 401", async () => {
      const bytes = new TextEncoder().encode(BROCHURE);
      expectStatus(await world().api.post("/api/parse-pdf", { token: user.token, form: upload(bytes) }), 200);
      expectError(await world().api.post("/api/parse-pdf", { form: upload(bytes) }), 401, "unauthenticated");
    });

    it("answers 400 for no file, an empty file, an unsupported type or a non-multipart body", async () => {
      const { api } = world();
      expectError(await api.post("/api/parse-pdf", { apiKey: user.key, form: upload(null) }), 400);
      const empty = upload(new Uint8Array(0));
      expectError(
        await api.post("/api/parse-pdf", { apiKey: user.key, form: empty }),
        400,
        "unsupported_document",
      );
      const zip = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00, 0x08, 0x00]);
      const unsupported = upload(zip, "brochure.txt", "text/plain");
      expectError(
        await api.post("/api/parse-pdf", { apiKey: user.key, form: unsupported }),
        400,
        "unsupported_document",
      );
      expectError(await api.post("/api/parse-pdf", { apiKey: user.key, body: { file: "x" } }), 400);
    });

    it("answers 413 for an upload over 10 MiB", async () => {
      const big = new Uint8Array(10 * 1024 * 1024 + 1).fill(0x61);
      expectError(await world().api.post("/api/parse-pdf", { apiKey: user.key, form: upload(big) }), 413);
    });
  });
}

import { MarketplaceError } from "@psm/core";
import { Hono } from "hono";
import { describeRoute } from "hono-openapi";
import type { AppEnv } from "../env.js";
import { presentParsedDocument } from "../presenters.js";
import { concurrencyCap } from "../rate-limit/concurrency.js";
import { operation, type RouteKit } from "../route-kit.js";
import { limitBody, readBytes } from "../validation.js";
import { ParsedDocumentSchema } from "../wire-schemas.js";

// Room for the multipart boundaries and part headers around a file of the maximum size.
const MULTIPART_OVERHEAD = 64 * 1024;

/** /api/parse-pdf: pre-fill a listing from an uploaded PDF, image or text file. */
export function documentRoutes(kit: RouteKit): Hono<AppEnv> {
  const { marketplace: m, config } = kit;
  const maxBody = config.maxUploadBytes + MULTIPART_OVERHEAD;
  const app = new Hono<AppEnv>();
  // Per process and whatever the rate limits: each upload is buffered and parsed whole.
  const uploadSlots = concurrencyCap(config.maxConcurrentUploads);

  app.post(
    "/parse-pdf",
    operation(kit, {
      capability: "parse_document",
      rate: "upload",
      tag: "documents",
      summary: "Extract listing fields from a document",
      ok: { 200: ParsedDocumentSchema },
      errors: [400, 413, 422, 503],
    }),
    uploadDoc,
    uploadSlots,
    limitBody(maxBody),
    async (c) => {
      const type = c.req.header("content-type") ?? "";
      if (!/^multipart\/form-data\s*;/i.test(type)) {
        throw new MarketplaceError("invalid_input", "file: send multipart/form-data with a file field");
      }
      const bytes = await readBytes(c, maxBody);
      let form: FormData;
      try {
        form = await new Response(bytes, { headers: { "content-type": type } }).formData();
      } catch {
        throw new MarketplaceError("invalid_input", "Malformed multipart body");
      }
      const file = form.get("file");
      if (!(file instanceof File)) throw new MarketplaceError("invalid_input", "file: is required");
      if (file.size > config.maxUploadBytes) throw new MarketplaceError("payload_too_large");
      const parsed = await m.documents.parse(c.get("actor"), {
        bytes: new Uint8Array(await file.arrayBuffer()),
        filename: file.name,
        declaredType: file.type || undefined,
      });
      return c.json(presentParsedDocument(parsed));
    },
  );

  return app;
}

// Documents the multipart body; the handler reads the upload itself.
const uploadDoc = describeRoute({
  requestBody: {
    required: true,
    content: {
      "multipart/form-data": {
        schema: {
          type: "object",
          properties: {
            file: { type: "string", format: "binary", description: "PDF, PNG, JPEG, WebP or UTF-8 text" },
          },
          required: ["file"],
        },
      },
    },
  },
});

import { MarketplaceError } from "@psm/core";
import type { OperationsConfig } from "../config.js";
import { defineOperation } from "../operation.js";
import { presentParsedDocument } from "../presenters.js";
import { ParsedDocumentSchema } from "../wire-schemas.js";

/**
 * POST /api/parse-pdf: pre-fill a listing from an uploaded PDF, image or text file. An upload
 * operation: every surface reads its file through the host's upload gate (the caller's share is
 * taken before a byte is read, the body is read within its deadline, stall bound and the
 * process's byte budget, and only a body that arrived whole takes a parse slot) and hands the
 * handler the file; the MCP tool decodes it from base64 and runs the same handler.
 */
export function documentOperations(config: Pick<OperationsConfig, "maxUploadBytes">) {
  return [
    defineOperation({
      name: "draft_listing_from_document",
      tool: 8,
      useWhen: "when the user has a brochure or offer document and wants a listing from it",
      method: "POST",
      // It writes nothing, so a retry is already safe; keeping its answer (megabytes of text) would buy nothing.
      idempotencyKey: false,
      path: "/api/parse-pdf",
      auth: "key-or-jwt",
      scope: "documents:parse",
      rate: "upload",
      private: "always",
      tag: "documents",
      summary: "Extract listing fields from a document",
      description: "Pre-fill a listing from a PDF, image or text file.",
      input: {},
      requestBody: {
        required: true,
        content: {
          "multipart/form-data": {
            schema: {
              type: "object",
              properties: {
                file: {
                  type: "string",
                  format: "binary",
                  description: `PDF, PNG, JPEG, WebP or UTF-8 text, at most ${config.maxUploadBytes} bytes`,
                },
              },
              required: ["file"],
            },
          },
        },
      },
      upload: { field: "file" },
      ok: { status: 200, schema: ParsedDocumentSchema },
      errors: [400, 413, 422, 503],
      handle: async ({ m, actor, file }) => {
        if (file === undefined) throw new MarketplaceError("invalid_input", "file: is required");
        const parsed = await m.documents.parse(actor, {
          bytes: file.bytes,
          filename: file.filename,
          declaredType: file.type,
        });
        return presentParsedDocument(parsed);
      },
    }),
  ];
}

import { MarketplaceError } from "@psm/core";
import type { ResolvedConfig } from "../config.js";
import { presentParsedDocument } from "../presenters.js";
import { createSlots, perCallerCap } from "../rate-limit/concurrency.js";
import { defineOperation } from "../registry/operation.js";
import { findFilePart, multipartBoundary } from "../uploads/multipart.js";
import { createByteBudget, readUpload } from "../uploads/read-upload.js";
import { DRAIN_BYTES } from "../validation.js";
import { ParsedDocumentSchema } from "../wire-schemas.js";

// Room for the multipart boundaries and part headers around a file of the maximum size.
const MULTIPART_OVERHEAD = 64 * 1024;

/** How uploads are bounded besides their size (the HTTP config's maxUploadBytes and maxConcurrentUploads). */
export interface UploadBounds {
  /** Time for a whole body to arrive; past it 400 and the connection is closed. Default 15 s. */
  bodyTimeoutMs: number;
  /** Uploads of one caller in progress at once, body reading included; more are 429. Default 2. */
  perCaller: number;
  /** Bytes read and dropped past the limit so that the 413 reaches a client still sending. Default 16 MiB. */
  drainBytes: number;
}

const DEFAULT_BOUNDS: UploadBounds = { bodyTimeoutMs: 15_000, perCaller: 2, drainBytes: DRAIN_BYTES };

/**
 * POST /api/parse-pdf: pre-fill a listing from an uploaded PDF, image or text file. The order bounds
 * what each caller can hold: its share of uploads (two at once) is taken first; its body is
 * read within a deadline and the process's byte budget; only a body that arrived whole and
 * within its size takes one of the process's upload slots, for the parse itself (whose workers
 * are bounded by the document parser). The slots and the budget belong to one app.
 */
export function documentOperations(config: ResolvedConfig, bounds: Partial<UploadBounds> = {}) {
  const { bodyTimeoutMs, perCaller, drainBytes } = { ...DEFAULT_BOUNDS, ...bounds };
  const maxBody = config.maxUploadBytes + MULTIPART_OVERHEAD;
  const uploadSlots = createSlots(config.maxConcurrentUploads);
  // Bodies being read or parsed hold at most this much memory together.
  const budget = createByteBudget(2 * config.maxConcurrentUploads * maxBody);

  return [
    defineOperation({
      name: "draft_listing_from_document",
      method: "POST",
      // It writes nothing, so a retry is already safe; keeping its answer (megabytes of text) would buy nothing.
      idempotencyKey: false,
      path: "/api/parse-pdf",
      auth: "key-or-jwt",
      rate: "upload",
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
      // The use case authorises the caller; this only keeps an anonymous caller from making
      // the server read (and hold) an upload before it is told 401.
      use: [
        async (c, next) => {
          if (c.get("actor").kind !== "user") throw new MarketplaceError("unauthenticated");
          await next();
        },
        perCallerCap(perCaller),
      ],
      ok: { status: 200, schema: ParsedDocumentSchema },
      errors: [400, 413, 422, 503],
      handle: async ({ m, actor, c }) => {
        const boundary = multipartBoundary(c.req.header("content-type") ?? "");
        if (boundary === null) {
          throw new MarketplaceError("invalid_input", "file: send multipart/form-data with a file field");
        }
        const upload = await readUpload(c, {
          maxBytes: maxBody,
          drainBytes,
          deadlineMs: bodyTimeoutMs,
          budget,
        });
        try {
          const release = uploadSlots.tryTake();
          if (release === null) {
            const retry = { retryAfter: 5 };
            throw new MarketplaceError(
              "service_unavailable",
              "Too many uploads in progress; try again shortly",
              retry,
            );
          }
          try {
            const file = findFilePart(upload.bytes, boundary, "file");
            if (file === null) throw new MarketplaceError("invalid_input", "file: is required");
            if (file.bytes.byteLength > config.maxUploadBytes)
              throw new MarketplaceError("payload_too_large");
            // A copy of its own, which the parser hands over to its worker thread (transferred, not copied again).
            const parsed = await m.documents.parse(actor, {
              bytes: new Uint8Array(file.bytes),
              filename: file.filename,
              declaredType: file.type,
            });
            return presentParsedDocument(parsed);
          } finally {
            release();
          }
        } finally {
          upload.release();
        }
      },
    }),
  ];
}

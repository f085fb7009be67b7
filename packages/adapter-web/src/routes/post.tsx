import { type ErrorCode, isMarketplaceError, MarketplaceError } from "@psm/core";
import { multipartBoundary, readMultipart } from "@psm/host";
import { type Context, Hono } from "hono";
import { EMPTY_DRAFT } from "../components/listing-fields.js";
import { checkFormToken, FORM_TOKEN_FIELD, originCheck, submittedBinding } from "../csrf.js";
import type { WebEnv } from "../env.js";
import { type FieldErrors, fieldErrorsOf } from "../forms.js";
import { formGuard, limited, readLimit, STALE_FORM, signedIn, userOf } from "../guard.js";
import { draftOf, draftOfDocument, LISTING_FIELDS, newListingOf } from "../listing-draft.js";
import { once } from "../once.js";
import type { WebConfig } from "../options.js";
import { PostListingPage, type PostView } from "../pages/post-listing.js";
import { render } from "../render.js";

/** What a person is told when the document could not be used, by core's code. */
const DOCUMENT_PROBLEMS: Partial<Record<ErrorCode, string>> = {
  unsupported_document:
    "Document could not be used: upload a PDF, a PNG, JPEG or WebP image, or a plain text file (not encrypted)",
  document_unreadable:
    "Document could not be read: no text was found in it in time. Fill in the form yourself",
  document_parser_busy: "Document reading is busy right now: try again in a few seconds",
  payload_too_large: "Document is larger than 10 MB",
};

/** The status of each of those answers. */
const DOCUMENT_STATUS: Partial<Record<ErrorCode, 400 | 413 | 422 | 503>> = {
  unsupported_document: 400,
  document_unreadable: 422,
  document_parser_busy: 503,
  payload_too_large: 413,
};

/** `/post`: the listing form, pre-filled from an uploaded document when one was read. */
export function postRoutes(config: WebConfig): Hono<WebEnv> {
  const m = config.marketplace;
  const app = new Hono<WebEnv>();

  const postPage = async (
    c: Context<WebEnv>,
    view: Omit<PostView, "limit">,
    status: 200 | 400 | 413 | 422 | 503 = 200,
  ) => {
    const limit = await m.profiles.getLimit({ userId: userOf(c).user.id });
    return render(c, config, (ctx) => <PostListingPage ctx={ctx} view={{ ...view, limit }} />, status);
  };

  app.get("/post", signedIn(config), readLimit(config), (c) =>
    postPage(c, { draft: EMPTY_DRAFT, errors: {} }),
  );

  // Multipart, so not formGuard: the token travels in the action's query and is checked before
  // the body is read; the body then goes through the host's upload gate, as on every surface.
  app.post(
    "/post/document",
    signedIn(config),
    originCheck(config),
    (c, next) => {
      if (checkFormToken(submittedBinding(c, config), c.req.query(FORM_TOKEN_FIELD)) === null) {
        throw new MarketplaceError("forbidden", STALE_FORM);
      }
      return next();
    },
    (c, next) => limited(c, config, "upload", next),
    async (c) => {
      const actor = userOf(c);
      const boundary = multipartBoundary(c.req.header("content-type") ?? "");
      if (boundary === null) throw new MarketplaceError("invalid_input", "The form could not be read");
      try {
        return await config.uploads.receive(c, actor.user.id, "multipart", async (bytes) => {
          const file = readMultipart(bytes, boundary).files.document;
          if (file === undefined || file.bytes.byteLength === 0) {
            const documentError = "Document: choose a file to upload";
            return postPage(c, { draft: EMPTY_DRAFT, errors: {}, documentError }, 400);
          }
          if (file.bytes.byteLength > config.maxUploadBytes) throw new MarketplaceError("payload_too_large");
          const parsed = await m.documents.parse(actor, {
            bytes: new Uint8Array(file.bytes),
            filename: file.filename,
            declaredType: file.type,
          });
          return postPage(c, { draft: draftOfDocument(parsed), errors: {}, prefilledFrom: file.filename });
        });
      } catch (error) {
        const problem = isMarketplaceError(error) ? DOCUMENT_PROBLEMS[error.code] : undefined;
        if (problem === undefined || !isMarketplaceError(error)) throw error;
        if (error.retryAfter !== undefined) c.header("Retry-After", String(Math.ceil(error.retryAfter)));
        return postPage(
          c,
          { draft: EMPTY_DRAFT, errors: {}, documentError: problem },
          DOCUMENT_STATUS[error.code],
        );
      }
    },
  );

  app.post("/post", signedIn(config), formGuard(config, "write"), async (c) => {
    const actor = userOf(c);
    const draft = draftOf(c.get("form"));
    const command = newListingOf(draft);
    return once<FieldErrors>(c, config, actor, {
      route: "create_listing",
      work: async (bound) => {
        try {
          const listing = await bound.listings.create(actor, command);
          return {
            redirect: `/listings/${listing.id}`,
            flash: { tone: "ok", text: "Your listing is published." },
          };
        } catch (error) {
          if (isMarketplaceError(error, "listing_limit_reached")) return { refused: {} };
          const problem = fieldErrorsOf(error, LISTING_FIELDS);
          if (problem) return { refused: problem };
          throw error;
        }
      },
      // A full quota needs no field message: the page says so in place of the form.
      refused: (problem) => postPage(c, { draft, errors: problem }, 400),
    });
  });

  return app;
}

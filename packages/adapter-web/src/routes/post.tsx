import { type ErrorCode, isMarketplaceError, MarketplaceError, newListingSchema } from "@psm/core";
import { type Context, Hono } from "hono";
import { EMPTY_DRAFT } from "../components/listing-fields.js";
import { checkFormToken, FORM_TOKEN_FIELD, originCheck, submittedBinding } from "../csrf.js";
import type { WebEnv } from "../env.js";
import { type FieldErrors, fieldErrorOf, schemaErrors } from "../forms.js";
import { formGuard, limited, readLimit, STALE_FORM, signedIn, userOf } from "../guard.js";
import { draftOf, draftOfDocument, LISTING_FIELDS, newListingOf } from "../listing-draft.js";
import { once } from "../once.js";
import type { WebConfig } from "../options.js";
import { PostListingPage, type PostView } from "../pages/post-listing.js";
import { render } from "../render.js";
import { readUpload } from "../upload.js";

/** What a person is told when the document could not be used, by core's code. */
const DOCUMENT_PROBLEMS: Partial<Record<ErrorCode, string>> = {
  unsupported_document:
    "Document could not be used: upload a PDF, a PNG, JPEG or WebP image, or a plain text file (not encrypted)",
  document_unreadable:
    "Document could not be read: no text was found in it in time. Fill in the form yourself",
  document_parser_busy: "Document reading is busy right now: try again in a few seconds",
  payload_too_large: "Document is larger than 10 MB",
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

  // Multipart, so not formGuard: the token travels inside the upload, which is bounded before it is read.
  app.post(
    "/post/document",
    signedIn(config),
    originCheck(config),
    (c, next) => limited(c, config, "upload", next),
    async (c) => {
      const actor = userOf(c);
      const upload = await readUpload(c, config.maxUploadBytes, "document").catch((error: unknown) => {
        if (isMarketplaceError(error, "payload_too_large")) return error;
        throw error;
      });
      if (upload instanceof MarketplaceError) {
        return postPage(
          c,
          { draft: EMPTY_DRAFT, errors: {}, documentError: DOCUMENT_PROBLEMS.payload_too_large },
          413,
        );
      }
      if (checkFormToken(submittedBinding(c, config), upload.fields[FORM_TOKEN_FIELD]) === null) {
        throw new MarketplaceError("forbidden", STALE_FORM);
      }
      if (upload.file === null || upload.file.size === 0) {
        return postPage(
          c,
          { draft: EMPTY_DRAFT, errors: {}, documentError: "Document: choose a file to upload" },
          400,
        );
      }
      try {
        const parsed = await m.documents.parse(actor, {
          bytes: new Uint8Array(await upload.file.arrayBuffer()),
          filename: upload.file.name,
          declaredType: upload.file.type === "" ? undefined : upload.file.type,
        });
        return postPage(c, { draft: draftOfDocument(parsed), errors: {}, prefilledFrom: upload.file.name });
      } catch (error) {
        const problem = isMarketplaceError(error) ? DOCUMENT_PROBLEMS[error.code] : undefined;
        if (problem === undefined || !isMarketplaceError(error)) throw error;
        if (error.retryAfter !== undefined) c.header("Retry-After", String(Math.ceil(error.retryAfter)));
        const status =
          error.code === "document_unreadable" ? 422 : error.code === "document_parser_busy" ? 503 : 400;
        return postPage(c, { draft: EMPTY_DRAFT, errors: {}, documentError: problem }, status);
      }
    },
  );

  app.post("/post", signedIn(config), formGuard(config, "write"), async (c) => {
    const actor = userOf(c);
    const draft = draftOf(c.get("form"));
    const command = newListingOf(draft);
    const errors = schemaErrors(newListingSchema, command, LISTING_FIELDS);
    if (Object.keys(errors).length > 0) return postPage(c, { draft, errors }, 400);
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
          const problem = fieldErrorOf(error, LISTING_FIELDS);
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

import type { ListingLimit } from "@psm/core";
import type { FC } from "hono/jsx";
import { Input } from "../components/field.js";
import { FormPanel } from "../components/form-panel.js";
import { type ListingDraft, ListingFields } from "../components/listing-fields.js";
import { NarrowPage } from "../components/narrow-page.js";
import { PostForm } from "../components/post-form.js";
import type { FieldErrors } from "../forms.js";
import type { PageContext } from "../render.js";

/** The post page's state: the draft, its problems, the author's slots and where the draft came from. */
export interface PostView {
  draft: ListingDraft;
  errors: FieldErrors;
  limit: ListingLimit;
  /** The uploaded file the draft was read from, for the "check each field" notice. */
  prefilledFrom?: string | undefined;
  /** A problem with the uploaded document, shown beside the file field. */
  documentError?: string | undefined;
}

/** A short sentence about the author's slots ("3 of 5 listings"). */
function slotLine(limit: ListingLimit): string {
  return `You are using ${limit.activeListingsCount} of ${limit.maxSlots} listings.`;
}

/**
 * `/post`: first an optional document (PDF, image or text) that pre-fills the
 * form for review, then the listing form itself. A full quota says so instead.
 */
export const PostListingPage: FC<{ ctx: PageContext; view: PostView }> = ({ ctx, view }) => {
  const errors = view.documentError ? { ...view.errors, document: view.documentError } : view.errors;
  return (
    <NarrowPage ctx={ctx} title="Post a listing" errors={errors}>
      <p class={view.limit.canPost ? "slots" : "slots slots-full"}>{slotLine(view.limit)}</p>
      {!view.limit.canPost ? (
        <div class="notice notice-error">
          <p>
            All your listing slots are in use. Pause or delete a listing in{" "}
            <a href="/my/listings">My listings</a> to post another.
          </p>
        </div>
      ) : (
        <>
          <FormPanel
            ctx={ctx}
            id="document-title"
            title="Start from a document"
            intro="Optional: upload a brochure, offer or description (PDF, image or text file, up to 10 MB) and we fill in the form below for you to review."
            action="/post/document"
            submit="Read document"
            multipart
            secondary
          >
            <Input
              name="document"
              label="Document"
              type="file"
              accept=".pdf,.png,.jpg,.jpeg,.webp,.txt,.md,application/pdf,image/png,image/jpeg,image/webp,text/plain"
              error={view.documentError}
              required
            />
          </FormPanel>
          <section aria-labelledby="details-title">
            <h2 id="details-title">Listing details</h2>
            {view.prefilledFrom ? (
              <p class="notice notice-info" role="status">
                We filled in the form from {view.prefilledFrom}. Check each field before you publish.
              </p>
            ) : null}
            <PostForm ctx={ctx} action="/post" class="stack">
              <ListingFields draft={view.draft} errors={view.errors} currency={ctx.currency} />
              <button type="submit" class="button">
                Publish listing
              </button>
            </PostForm>
          </section>
        </>
      )}
    </NarrowPage>
  );
};

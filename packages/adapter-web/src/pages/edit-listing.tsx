import type { FC } from "hono/jsx";
import { type ListingDraft, ListingFields } from "../components/listing-fields.js";
import { NarrowPage } from "../components/narrow-page.js";
import { PostForm } from "../components/post-form.js";
import type { FieldErrors } from "../forms.js";
import type { PageContext } from "../render.js";

/** The edit form's state: which listing, its stored title (for the heading), the draft and its problems. */
export interface EditView {
  id: string;
  title: string;
  draft: ListingDraft;
  errors: FieldErrors;
}

/** `/my/listings/:id/edit`: the listing form filled with the stored listing. */
export const EditListingPage: FC<{ ctx: PageContext; view: EditView }> = ({ ctx, view }) => (
  <NarrowPage
    ctx={ctx}
    title={`Edit ${view.title}`}
    heading={`Edit “${view.title}”`}
    errors={view.errors}
    back={{ href: "/my/listings", label: "My listings" }}
  >
    <PostForm ctx={ctx} action={`/my/listings/${view.id}/edit`} class="stack">
      <ListingFields draft={view.draft} errors={view.errors} currency={ctx.currency} />
      <div class="actions">
        <button type="submit" class="button">
          Save changes
        </button>
        <a href="/my/listings">Cancel</a>
      </div>
    </PostForm>
  </NarrowPage>
);

import type { FC } from "hono/jsx";
import { NarrowPage } from "../components/narrow-page.js";
import { PostForm } from "../components/post-form.js";
import type { PageContext } from "../render.js";

/** What a confirmation step asks and where its answer goes. */
export interface Confirmation {
  /** The page title and heading: the question. */
  question: string;
  /** What will happen, in a sentence. */
  detail: string;
  /** Where the confirming form posts. */
  action: string;
  /** The confirming button's text ("Delete listing"). */
  confirm: string;
  /** Where "Cancel" goes. */
  cancel: string;
}

/** A destructive step asked once more, as its own page: works with and without JavaScript. */
export const ConfirmPage: FC<{ ctx: PageContext; confirmation: Confirmation }> = ({ ctx, confirmation }) => (
  <NarrowPage ctx={ctx} title={confirmation.question}>
    <p class="lead">{confirmation.detail}</p>
    <PostForm ctx={ctx} action={confirmation.action}>
      <div class="actions">
        <button type="submit" class="button button-danger">
          {confirmation.confirm}
        </button>
        <a href={confirmation.cancel}>Cancel</a>
      </div>
    </PostForm>
  </NarrowPage>
);

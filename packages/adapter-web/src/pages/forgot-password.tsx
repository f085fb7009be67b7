import type { FC } from "hono/jsx";
import { EmailInput } from "../components/account-fields.js";
import { NarrowPage } from "../components/narrow-page.js";
import { PostForm } from "../components/post-form.js";
import type { FieldErrors } from "../forms.js";
import type { PageContext } from "../render.js";

/** The form's state: the address as typed and what was wrong with it. */
export interface ForgotPasswordView {
  email: string;
  errors: FieldErrors;
}

/** `/forgot-password`: asks for the reset mail, whose link opens the reset page. */
export const ForgotPasswordPage: FC<{ ctx: PageContext; view: ForgotPasswordView }> = ({ ctx, view }) => (
  <NarrowPage ctx={ctx} title="Forgot your password?" errors={view.errors}>
    <p class="lead">
      Enter the email address of your account and we will send you a link to choose a new one.
    </p>
    <PostForm ctx={ctx} action="/forgot-password" class="stack">
      <EmailInput value={view.email} error={view.errors.email} />
      <button type="submit" class="button">
        Send reset link
      </button>
    </PostForm>
    <p>
      Remembered it? <a href="/login">Log in</a>.
    </p>
  </NarrowPage>
);

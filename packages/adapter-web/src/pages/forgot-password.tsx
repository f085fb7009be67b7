import type { FC } from "hono/jsx";
import { ErrorSummary, Input } from "../components/field.js";
import { Layout } from "../components/layout.js";
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
  <Layout ctx={ctx} title="Forgot your password?">
    <div class="narrow">
      <ErrorSummary errors={view.errors} />
      <h1>Forgot your password?</h1>
      <p class="lead">
        Enter the email address of your account and we will send you a link to choose a new one.
      </p>
      <PostForm ctx={ctx} action="/forgot-password" class="stack">
        <Input
          name="email"
          label="Email"
          type="email"
          autocomplete="email"
          value={view.email}
          error={view.errors.email}
          required
        />
        <button type="submit" class="button">
          Send reset link
        </button>
      </PostForm>
      <p>
        Remembered it? <a href="/login">Log in</a>.
      </p>
    </div>
  </Layout>
);

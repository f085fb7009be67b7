import type { FC } from "hono/jsx";
import { ErrorSummary, Input } from "../components/field.js";
import { Layout } from "../components/layout.js";
import { PostForm } from "../components/post-form.js";
import type { FieldErrors } from "../forms.js";
import type { PageContext } from "../render.js";

/** The sign-up form's state: what was typed (never the password) and what was wrong. */
export interface SignUpView {
  email: string;
  displayName: string;
  errors: FieldErrors;
}

/** `/signup`: email, password and an optional display name. */
export const SignUpPage: FC<{ ctx: PageContext; view: SignUpView }> = ({ ctx, view }) => (
  <Layout ctx={ctx} title="Create an account">
    <div class="narrow">
      <ErrorSummary errors={view.errors} />
      <h1>Create an account</h1>
      <p class="lead">Post your services and message other professionals. It takes a minute.</p>
      <PostForm ctx={ctx} action="/signup" class="stack">
        <Input
          name="email"
          label="Email"
          type="email"
          autocomplete="email"
          value={view.email}
          error={view.errors.email}
          required
        />
        <Input
          name="password"
          label="Password"
          type="password"
          autocomplete="new-password"
          hint="At least 6 characters."
          error={view.errors.password}
          required
        />
        <Input
          name="display_name"
          label="Display name"
          optional
          autocomplete="name"
          hint="Shown on your listings and messages. You can change it later."
          value={view.displayName}
          error={view.errors.display_name}
          maxlength={100}
        />
        <button type="submit" class="button">
          Create account
        </button>
      </PostForm>
      <p>
        Already have an account? <a href="/login">Log in</a>.
      </p>
    </div>
  </Layout>
);

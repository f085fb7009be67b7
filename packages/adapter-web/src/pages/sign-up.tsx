import type { FC } from "hono/jsx";
import { EmailInput, NEW_PASSWORD_HINT, PasswordInput } from "../components/account-fields.js";
import { Input } from "../components/field.js";
import { NarrowPage } from "../components/narrow-page.js";
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
  <NarrowPage ctx={ctx} title="Create an account" errors={view.errors}>
    <p class="lead">Post your services and message other professionals. It takes a minute.</p>
    <PostForm ctx={ctx} action="/signup" class="stack">
      <EmailInput value={view.email} error={view.errors.email} />
      <PasswordInput
        name="password"
        label="Password"
        autocomplete="new-password"
        hint={NEW_PASSWORD_HINT}
        error={view.errors.password}
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
  </NarrowPage>
);

import type { FC } from "hono/jsx";
import { EmailInput, PasswordInput } from "../components/account-fields.js";
import { NarrowPage } from "../components/narrow-page.js";
import { PostForm } from "../components/post-form.js";
import type { FieldErrors } from "../forms.js";
import type { PageContext } from "../render.js";

/** The log-in form's state: the address as typed, where to go afterwards, and what was wrong. */
export interface LogInView {
  email: string;
  /** A path of this site to return to after logging in. */
  next: string;
  errors: FieldErrors;
}

/** `/login`: email and password, and the way to a forgotten password. */
export const LogInPage: FC<{ ctx: PageContext; view: LogInView }> = ({ ctx, view }) => (
  <NarrowPage ctx={ctx} title="Log in" errors={view.errors}>
    <PostForm ctx={ctx} action="/login" class="stack">
      <input type="hidden" name="next" value={view.next} />
      <EmailInput value={view.email} error={view.errors.email} />
      <PasswordInput
        name="password"
        label="Password"
        autocomplete="current-password"
        error={view.errors.password}
      />
      <button type="submit" class="button">
        Log in
      </button>
    </PostForm>
    <p>
      <a href="/forgot-password">Forgot your password?</a>
    </p>
    <p>
      New here? <a href="/signup">Create an account</a>.
    </p>
  </NarrowPage>
);

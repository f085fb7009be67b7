import type { FC } from "hono/jsx";
import { ErrorSummary, Input } from "../components/field.js";
import { Layout } from "../components/layout.js";
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
  <Layout ctx={ctx} title="Log in">
    <div class="narrow">
      <ErrorSummary errors={view.errors} />
      <h1>Log in</h1>
      <PostForm ctx={ctx} action="/login" class="stack">
        <input type="hidden" name="next" value={view.next} />
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
          autocomplete="current-password"
          error={view.errors.password}
          required
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
    </div>
  </Layout>
);

import type { FC } from "hono/jsx";
import { ErrorSummary, Input } from "../components/field.js";
import { Layout } from "../components/layout.js";
import { PostForm } from "../components/post-form.js";
import type { FieldErrors } from "../forms.js";
import type { PageContext } from "../render.js";

/** The account page's state: the display name as typed and the problems of either form. */
export interface AccountView {
  displayName: string;
  errors: FieldErrors;
}

/** `/account`: the address, the display name, and a password change (which ends every other session). */
export const AccountPage: FC<{ ctx: PageContext; view: AccountView }> = ({ ctx, view }) => {
  const user = ctx.user;
  return (
    <Layout ctx={ctx} title="Account">
      <div class="narrow">
        <ErrorSummary errors={view.errors} />
        <h1>Account</h1>
        <p>
          Signed in as <strong>{user?.email}</strong>
          {user?.emailVerifiedAt ? null : (
            <span class="hint"> (not yet confirmed: follow the link we mailed you)</span>
          )}
          .
        </p>
        <p>
          Programs and agents act for you with <a href="/account/keys">API keys</a>.
        </p>
        <section class="panel" aria-labelledby="profile-title">
          <h2 id="profile-title">Profile</h2>
          <PostForm ctx={ctx} action="/account/profile" class="stack">
            <Input
              name="display_name"
              label="Display name"
              hint="Shown on your listings and messages."
              autocomplete="name"
              value={view.displayName}
              error={view.errors.display_name}
              maxlength={100}
              required
            />
            <button type="submit" class="button">
              Save display name
            </button>
          </PostForm>
        </section>
        <section class="panel" aria-labelledby="password-title">
          <h2 id="password-title">Password</h2>
          <p>Changing it logs you out everywhere else: other browsers and every API token issued with it.</p>
          <PostForm ctx={ctx} action="/account/password" class="stack">
            <Input
              name="current_password"
              label="Current password"
              type="password"
              autocomplete="current-password"
              error={view.errors.current_password}
              required
            />
            <Input
              name="new_password"
              label="New password"
              type="password"
              autocomplete="new-password"
              hint="At least 6 characters."
              error={view.errors.new_password}
              required
            />
            <Input
              name="confirm_password"
              label="Confirm new password"
              type="password"
              autocomplete="new-password"
              error={view.errors.confirm_password}
              required
            />
            <button type="submit" class="button">
              Change password
            </button>
          </PostForm>
        </section>
      </div>
    </Layout>
  );
};

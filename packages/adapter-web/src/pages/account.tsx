import { isDefaultDisplayName } from "@psm/core";
import type { FC } from "hono/jsx";
import { NewPasswordInputs, PasswordInput } from "../components/account-fields.js";
import { Input } from "../components/field.js";
import { FormPanel } from "../components/form-panel.js";
import { NarrowPage } from "../components/narrow-page.js";
import type { FieldErrors } from "../forms.js";
import type { PageContext } from "../render.js";

/** The account page's state: the display name as typed and the problems of either form. */
export interface AccountView {
  displayName: string;
  errors: FieldErrors;
  /** Whether applications connect through OAuth (the link to /account/apps). */
  connectedApps: boolean;
}

/** `/account`: the address, the display name, and a password change (which ends every other session). */
export const AccountPage: FC<{ ctx: PageContext; view: AccountView }> = ({ ctx, view }) => {
  const user = ctx.user;
  return (
    <NarrowPage ctx={ctx} title="Account" errors={view.errors}>
      <p>
        Signed in as <strong>{user?.email}</strong>
        {user?.emailVerifiedAt ? null : (
          <span class="hint"> (not yet confirmed: follow the link we mailed you)</span>
        )}
        .
      </p>
      <p>
        Programs and agents act for you with <a href="/account/keys">API keys</a>, and hear of your events as
        they happen through <a href="/account/webhooks">webhooks</a>. Choose which mails you get in your{" "}
        <a href="/account/notifications">notification settings</a>, and keep{" "}
        <a href="/account/saved-searches">saved searches</a> to hear of new listings.
        {view.connectedApps ? (
          <>
            {" "}
            See and disconnect the <a href="/account/apps">applications you connected</a>.
          </>
        ) : null}
      </p>
      {user && isDefaultDisplayName(user.displayName) ? (
        <p class="notice notice-info" role="status" id="choose-name">
          Choose a display name: until you do, your listings and messages show “{user.displayName}”.
        </p>
      ) : null}
      <FormPanel
        ctx={ctx}
        id="profile-title"
        title="Profile"
        action="/account/profile"
        submit="Save display name"
      >
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
      </FormPanel>
      <FormPanel
        ctx={ctx}
        id="password-title"
        title="Password"
        intro="Changing it logs you out everywhere else: other browsers and every API token issued with it."
        action="/account/password"
        submit="Change password"
      >
        <PasswordInput
          name="current_password"
          label="Current password"
          autocomplete="current-password"
          error={view.errors.current_password}
        />
        <NewPasswordInputs errors={view.errors} confirmLabel="Confirm new password" />
      </FormPanel>
    </NarrowPage>
  );
};

import type { FC } from "hono/jsx";
import { NewPasswordInputs } from "../components/account-fields.js";
import { NarrowPage } from "../components/narrow-page.js";
import type { FieldErrors } from "../forms.js";
import type { PageContext } from "../render.js";

/** The new-password form's state: the mailed link's token and what was wrong with the passwords. */
export interface ResetPasswordView {
  token: string;
  errors: FieldErrors;
}

/**
 * `/reset-password`: the form behind the mailed link. Its token is the only proof it needs, so it
 * carries no per-visitor token; the bounds are core's, so the browser checks what core will.
 */
export const ResetPasswordPage: FC<{ ctx: PageContext; view: ResetPasswordView }> = ({ ctx, view }) => (
  <NarrowPage ctx={ctx} title="Choose a new password" errors={view.errors} script={false}>
    <form method="post" action="/reset-password" class="stack">
      <input type="hidden" name="token" value={view.token} />
      <NewPasswordInputs errors={view.errors} confirmLabel="Confirm the new password" bounded />
      <button type="submit" class="button">
        Set new password
      </button>
    </form>
  </NarrowPage>
);

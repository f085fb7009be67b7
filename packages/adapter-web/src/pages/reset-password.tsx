import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "@psm/core";
import type { FC } from "hono/jsx";
import { ErrorSummary, Input } from "../components/field.js";
import { Layout } from "../components/layout.js";
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
export const ResetPasswordPage: FC<{ ctx: PageContext; view: ResetPasswordView }> = ({ ctx, view }) => {
  const bounds = { minlength: PASSWORD_MIN_LENGTH, maxlength: PASSWORD_MAX_LENGTH };
  return (
    <Layout ctx={ctx} title="Choose a new password" script={false}>
      <div class="narrow">
        <ErrorSummary errors={view.errors} />
        <h1>Choose a new password</h1>
        <form method="post" action="/reset-password" class="stack">
          <input type="hidden" name="token" value={view.token} />
          <Input
            name="new_password"
            label="New password"
            type="password"
            autocomplete="new-password"
            hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
            error={view.errors.new_password}
            {...bounds}
            required
          />
          <Input
            name="confirm_password"
            label="Confirm the new password"
            type="password"
            autocomplete="new-password"
            error={view.errors.confirm_password}
            {...bounds}
            required
          />
          <button type="submit" class="button">
            Set new password
          </button>
        </form>
      </div>
    </Layout>
  );
};

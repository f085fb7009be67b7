import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "@psm/core";
import type { FC } from "hono/jsx";
import type { FieldErrors } from "../forms.js";
import { Input } from "./field.js";

/** The hint of every field that sets a password, from core's own bound. */
export const NEW_PASSWORD_HINT = `At least ${PASSWORD_MIN_LENGTH} characters.`;

/** The address field of the log-in, sign-up and reset-request forms. */
export const EmailInput: FC<{ value: string; error: string | undefined }> = ({ value, error }) => (
  <Input name="email" label="Email" type="email" autocomplete="email" value={value} error={error} required />
);

/**
 * A required password field. Its value is never sent back (Input drops it), and `autocomplete`
 * tells a password manager whether to fill in the stored one or offer a new one.
 */
export const PasswordInput: FC<{
  name: string;
  label: string;
  autocomplete: "current-password" | "new-password";
  hint?: string;
  error: string | undefined;
  minlength?: number;
  maxlength?: number;
}> = (props) => <Input {...props} type="password" required />;

/**
 * A new password typed twice. `bounded` gives both fields core's length bounds, so the browser
 * checks what core will (the reset page, which must not spend its token on a refusal).
 */
export const NewPasswordInputs: FC<{ errors: FieldErrors; confirmLabel: string; bounded?: boolean }> = ({
  errors,
  confirmLabel,
  bounded,
}) => {
  const bounds = bounded ? { minlength: PASSWORD_MIN_LENGTH, maxlength: PASSWORD_MAX_LENGTH } : {};
  return (
    <>
      <PasswordInput
        name="new_password"
        label="New password"
        autocomplete="new-password"
        hint={NEW_PASSWORD_HINT}
        error={errors.new_password}
        {...bounds}
      />
      <PasswordInput
        name="confirm_password"
        label={confirmLabel}
        autocomplete="new-password"
        error={errors.confirm_password}
        {...bounds}
      />
    </>
  );
};

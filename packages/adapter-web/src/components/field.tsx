import type { FC, PropsWithChildren } from "hono/jsx";

/** What every field takes: its name, visible label, and optional hint and error. */
interface FieldProps {
  name: string;
  label: string;
  /** The element id; the name by default (give one when a page repeats a name). */
  id?: string;
  hint?: string | undefined;
  error?: string | undefined;
  /** Marks the label "(optional)". */
  optional?: boolean;
}

/** The ids a control's aria-describedby names: its hint and its error, each when shown. */
function describedBy(id: string, props: FieldProps): string | undefined {
  const ids = [props.hint ? `${id}-hint` : "", props.error ? `${id}-error` : ""].filter(Boolean);
  return ids.length > 0 ? ids.join(" ") : undefined;
}

/** The label, hint and error around a control; the error is tied to the control by aria-describedby. */
const Shell: FC<PropsWithChildren<FieldProps & { id: string }>> = (props) => (
  <div class={props.error ? "field field-invalid" : "field"}>
    <label for={props.id}>
      {props.label}
      {props.optional ? <span class="optional"> (optional)</span> : null}
    </label>
    {props.hint ? (
      <p class="hint" id={`${props.id}-hint`}>
        {props.hint}
      </p>
    ) : null}
    {props.error ? (
      <p class="field-error" id={`${props.id}-error`}>
        <span class="visually-hidden">Error: </span>
        {props.error}
      </p>
    ) : null}
    {props.children}
  </div>
);

type InputType = "text" | "email" | "password" | "search" | "date" | "file" | "url";

/** A one-line input with its label. */
export const Input: FC<
  FieldProps & {
    type?: InputType;
    value?: string | undefined;
    autocomplete?: string;
    required?: boolean;
    inputmode?: "decimal" | "email" | "text";
    minlength?: number;
    maxlength?: number;
    accept?: string;
    readonly?: boolean;
  }
> = (props) => {
  const id = props.id ?? props.name;
  return (
    <Shell {...props} id={id}>
      <input
        id={id}
        name={props.name}
        type={props.type ?? "text"}
        value={props.type === "password" || props.type === "file" ? undefined : props.value}
        autocomplete={props.autocomplete}
        required={props.required}
        inputmode={props.inputmode}
        minlength={props.minlength}
        maxlength={props.maxlength}
        accept={props.accept}
        readonly={props.readonly}
        aria-describedby={describedBy(id, props)}
        aria-invalid={props.error ? "true" : undefined}
      />
    </Shell>
  );
};

/** A multi-line text area with its label. */
export const TextArea: FC<
  FieldProps & { value?: string | undefined; rows?: number; required?: boolean; maxlength?: number }
> = (props) => {
  const id = props.id ?? props.name;
  return (
    <Shell {...props} id={id}>
      <textarea
        id={id}
        name={props.name}
        rows={props.rows ?? 6}
        required={props.required}
        maxlength={props.maxlength}
        aria-describedby={describedBy(id, props)}
        aria-invalid={props.error ? "true" : undefined}
      >
        {props.value ?? ""}
      </textarea>
    </Shell>
  );
};

/** A drop-down list with its label. */
export const Select: FC<
  FieldProps & { value?: string | undefined; options: readonly { value: string; label: string }[] }
> = (props) => {
  const id = props.id ?? props.name;
  return (
    <Shell {...props} id={id}>
      <select
        id={id}
        name={props.name}
        aria-describedby={describedBy(id, props)}
        aria-invalid={props.error ? "true" : undefined}
      >
        {props.options.map((option) => (
          <option value={option.value} selected={option.value === props.value}>
            {option.label}
          </option>
        ))}
      </select>
    </Shell>
  );
};

/**
 * The list of a form's problems at the top of the page, each a link to its
 * field. Announced when the page loads (role="alert"); the script also moves
 * focus to it.
 */
export const ErrorSummary: FC<{ errors: Record<string, string>; ids?: Record<string, string> }> = ({
  errors,
  ids = {},
}) => {
  const entries = Object.entries(errors);
  if (entries.length === 0) return null;
  return (
    <div class="error-summary" role="alert" aria-labelledby="error-summary-title" tabindex={-1}>
      <h2 id="error-summary-title">There is a problem</h2>
      <ul>
        {entries.map(([field, message]) => (
          <li>
            <a href={`#${ids[field] ?? field}`}>{message}</a>
          </li>
        ))}
      </ul>
    </div>
  );
};

import type { Child, FC } from "hono/jsx";

/** One box of a group: its own field name (see key-form.ts's scopeField), label and hint. */
export interface CheckboxItem {
  name: string;
  id: string;
  label: Child;
  hint?: string;
  checked: boolean;
}

/**
 * A group of checkboxes in a fieldset whose legend names the question. The group's hint and error
 * describe the fieldset, so a screen reader hears them on entering the group; each box has a
 * `label for` and its own hint.
 */
export const Checkboxes: FC<{
  id: string;
  legend: string;
  hint?: string;
  error?: string | undefined;
  items: readonly CheckboxItem[];
}> = ({ id, legend, hint, error, items }) => {
  const described = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ");
  return (
    <fieldset
      id={id}
      class={error ? "field checkboxes field-invalid" : "field checkboxes"}
      aria-describedby={described || undefined}
    >
      <legend>{legend}</legend>
      {hint ? (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p class="field-error" id={`${id}-error`}>
          <span class="visually-hidden">Error: </span>
          {error}
        </p>
      ) : null}
      {items.map((item) => (
        <div class="checkbox">
          <input
            type="checkbox"
            id={item.id}
            name={item.name}
            value="yes"
            checked={item.checked}
            aria-describedby={item.hint ? `${item.id}-hint` : undefined}
          />
          <label for={item.id}>{item.label}</label>
          {item.hint ? (
            <p class="hint" id={`${item.id}-hint`}>
              {item.hint}
            </p>
          ) : null}
        </div>
      ))}
    </fieldset>
  );
};

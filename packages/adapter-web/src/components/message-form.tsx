import type { FC, PropsWithChildren } from "hono/jsx";
import type { PageContext } from "../render.js";
import { TextArea } from "./field.js";
import { PostForm } from "./post-form.js";

/** Core's bound on a message (its message schema). */
const MESSAGE_MAX_LENGTH = 5000;

/**
 * A form that sends a message about a listing: the text, kept with its problem when refused, and
 * the button. Hidden fields that say about what and to whom come as children.
 */
export const MessageForm: FC<
  PropsWithChildren<{
    ctx: PageContext;
    action: string;
    class?: string;
    /** The text area's id, when a page holds several of these forms. */
    id?: string;
    label: string;
    hint?: string;
    rows: number;
    draft?: string | undefined;
    error?: string | undefined;
  }>
> = ({ ctx, action, class: className, id, label, hint, rows, draft, error, children }) => (
  <PostForm ctx={ctx} action={action} class={className}>
    {children}
    <TextArea
      name="content"
      id={id}
      label={label}
      hint={hint}
      value={draft}
      error={error}
      rows={rows}
      maxlength={MESSAGE_MAX_LENGTH}
      required
    />
    <button type="submit" class="button">
      Send message
    </button>
  </PostForm>
);

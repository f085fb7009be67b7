import type { FC, PropsWithChildren } from "hono/jsx";
import type { PageContext } from "../render.js";
import { PostForm } from "./post-form.js";

/**
 * One of several forms on a page, in a panel of its own: a heading that names it (and labels the
 * panel), what it is for, its fields, and the button that sends it.
 */
export const FormPanel: FC<
  PropsWithChildren<{
    ctx: PageContext;
    /** The heading's id, which labels the panel. */
    id: string;
    title: string;
    intro?: string;
    action: string;
    submit: string;
    /** An upload (see PostForm). */
    multipart?: boolean;
    /** A step before the page's main form, whose button should not look like the main one. */
    secondary?: boolean;
  }>
> = ({ ctx, id, title, intro, action, submit, multipart, secondary, children }) => (
  <section class="panel" aria-labelledby={id}>
    <h2 id={id}>{title}</h2>
    {intro ? <p>{intro}</p> : null}
    <PostForm ctx={ctx} action={action} multipart={multipart} class="stack">
      {children}
      <button type="submit" class={secondary ? "button button-secondary" : "button"}>
        {submit}
      </button>
    </PostForm>
  </section>
);

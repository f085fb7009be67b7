import type { FC, PropsWithChildren } from "hono/jsx";
import type { PageContext } from "../render.js";
import { PostForm } from "./post-form.js";

/** What a row's action does and to what: screen readers hear "Delete Audit", not a list of "Delete". */
interface RowAction {
  label: string;
  /** The name of the row's record. */
  subject: string;
  tone: "secondary" | "danger";
}

const classOf = (tone: RowAction["tone"]) => `button button-${tone} button-small`;

/** A row's action that opens a page (an edit form, a confirmation step). */
export const RowLink: FC<RowAction & { href: string }> = ({ href, label, subject, tone }) => (
  <a class={classOf(tone)} href={href}>
    {label}
    <span class="visually-hidden"> {subject}</span>
  </a>
);

/** A row's delete step: a link to the page that asks once more (every delete has one). */
export const DeleteLink: FC<{ href: string; subject: string }> = ({ href, subject }) => (
  <RowLink href={href} label="Delete" subject={subject} tone="danger" />
);

/** A row's action done at once by a button that posts (with any hidden fields as children). */
export const RowButton: FC<PropsWithChildren<RowAction & { ctx: PageContext; action: string }>> = ({
  ctx,
  action,
  label,
  subject,
  tone,
  children,
}) => (
  <PostForm ctx={ctx} action={action} class="inline-form">
    {children}
    <button type="submit" class={classOf(tone)}>
      {label}
      <span class="visually-hidden"> {subject}</span>
    </button>
  </PostForm>
);

import type { FC, PropsWithChildren } from "hono/jsx";
import { FORM_TOKEN_FIELD } from "../csrf.js";
import type { PageContext } from "../render.js";

/** A form that POSTs to this site with its own token (CSRF, and the key of its submission). */
export const PostForm: FC<
  PropsWithChildren<{ ctx: PageContext; action: string; class?: string; multipart?: boolean; id?: string }>
> = ({ ctx, action, class: className, multipart, id, children }) => (
  <form
    method="post"
    action={action}
    class={className}
    id={id}
    enctype={multipart ? "multipart/form-data" : undefined}
  >
    <input type="hidden" name={FORM_TOKEN_FIELD} value={ctx.formToken()} />
    {children}
  </form>
);

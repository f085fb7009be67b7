import type { FC, PropsWithChildren } from "hono/jsx";
import { FORM_TOKEN_FIELD } from "../csrf.js";
import type { PageContext } from "../render.js";

/**
 * A form that POSTs to this site with its own token (CSRF, and the key of its submission). An
 * upload carries its token in the action's query instead, so that the server checks it before
 * it reads a byte of the body (query strings are never logged).
 */
export const PostForm: FC<
  PropsWithChildren<{ ctx: PageContext; action: string; class?: string; multipart?: boolean; id?: string }>
> = ({ ctx, action, class: className, multipart, id, children }) => {
  const token = ctx.formToken();
  return (
    <form
      method="post"
      action={multipart ? `${action}?${FORM_TOKEN_FIELD}=${encodeURIComponent(token)}` : action}
      class={className}
      id={id}
      enctype={multipart ? "multipart/form-data" : undefined}
    >
      {multipart ? null : <input type="hidden" name={FORM_TOKEN_FIELD} value={token} />}
      {children}
    </form>
  );
};

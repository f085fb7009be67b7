import type { FC, PropsWithChildren } from "hono/jsx";
import { Input } from "./field.js";

/**
 * A webhook's signing secret just made (at creation or rotation) with a copy button: the only
 * time it is ever shown, as the new API key panel shows a key. Only the answer that made it
 * renders this (no-store), never a redirect or a cookie. `children` say what it belongs to.
 */
export const NewSecretPanel: FC<PropsWithChildren<{ title: string; secret: string }>> = ({
  title,
  secret,
  children,
}) => (
  <section class="panel panel-highlight" aria-labelledby="new-secret-title">
    <h2 id="new-secret-title">{title}</h2>
    {children}
    <p>Copy it now: this is the only time it is shown. Your program verifies each delivery with it.</p>
    <div class="copy-row">
      <Input name="new_secret" id="new-secret" label="Signing secret" value={secret} readonly />
      <button type="button" class="button button-secondary" data-copy="new-secret" hidden>
        Copy secret
      </button>
    </div>
  </section>
);

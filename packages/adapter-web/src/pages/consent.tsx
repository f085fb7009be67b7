import { type PendingAuthorization, SCOPE_DESCRIPTIONS } from "@psm/core";
import type { FC } from "hono/jsx";
import { Checkboxes } from "../components/checkboxes.js";
import { NarrowPage } from "../components/narrow-page.js";
import { PostForm } from "../components/post-form.js";
import { scopeField } from "../key-form.js";
import type { PageContext } from "../render.js";

/** The consent page's state: the checked request, and its parameters to send again with the answer. */
export interface ConsentView {
  pending: PendingAuthorization;
  /** Where the answer goes, in words: the redirect URI's host (or an app's own scheme). */
  destination: string;
  /** The request's parameters, as hidden fields: the answer is checked again from them. */
  hidden: Readonly<Record<string, string>>;
  action: string;
}

/**
 * The OAuth consent page: which application asks, where it will be sent back to, and what it may
 * do (each scope a checkbox, all ticked: untick to give less). Approve and Deny are the two
 * buttons of one form; it works without JavaScript.
 */
export const ConsentPage: FC<{ ctx: PageContext; view: ConsentView }> = ({ ctx, view }) => {
  const { pending } = view;
  return (
    <NarrowPage ctx={ctx} title={`Connect ${pending.client.name}`}>
      <p class="lead">
        <strong>{pending.client.name}</strong> wants to use your account
        {ctx.user ? (
          <>
            {" "}
            (<strong>{ctx.user.email}</strong>)
          </>
        ) : null}
        . If you approve, it is sent back to <strong>{view.destination}</strong>.
      </p>
      <p>It can act as you only within the scopes you tick, until you disconnect it on your account page.</p>
      <PostForm ctx={ctx} action={view.action}>
        {Object.entries(view.hidden).map(([name, value]) => (
          <input type="hidden" name={name} value={value} />
        ))}
        {pending.scopes.length > 0 ? (
          <Checkboxes
            id="scopes"
            legend="What it may do"
            hint="Untick what it should not do. Reading public listings needs no scope."
            items={pending.scopes.map((scope) => ({
              name: scopeField(scope),
              id: `scope-${scope.replace(/[^a-z0-9]+/g, "-")}`,
              label: <code>{scope}</code>,
              hint: SCOPE_DESCRIPTIONS[scope],
              checked: true,
            }))}
          />
        ) : (
          <p>It asks only to read what is public.</p>
        )}
        <div class="actions">
          <button type="submit" name="decision" value="approve" class="button">
            Approve
          </button>
          <button type="submit" name="decision" value="deny" class="button button-secondary">
            Deny
          </button>
        </div>
      </PostForm>
    </NarrowPage>
  );
};

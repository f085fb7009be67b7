import { type ApiKey, SCOPE_DESCRIPTIONS, type Scope } from "@psm/core";
import type { FC } from "hono/jsx";
import { Checkboxes } from "../components/checkboxes.js";
import { ErrorSummary, Input, Select } from "../components/field.js";
import { FormPanel } from "../components/form-panel.js";
import { KeyTable, scopeList } from "../components/key-table.js";
import { Layout } from "../components/layout.js";
import { formatDateTime } from "../format.js";
import type { FieldErrors } from "../forms.js";
import { EXPIRY_CHOICES, type KeyDraft, scopeField } from "../key-form.js";
import type { PageContext } from "../render.js";

/** A key just made or rotated: its value, shown once, and what it is. */
export interface NewKey {
  name: string;
  secret: string;
  scopes: ApiKey["scopes"];
  expiresAt: Date | null;
  /** Set by a rotation: the key it replaces, and until when that one works (null: no longer). */
  replaced?: { prefix: string | null; until: Date | null };
}

/** The keys page's state: the keys, a key just made (shown once), and the create form with its problems. */
export interface ApiKeysView {
  keys: ApiKey[];
  now: Date;
  userId: string;
  /** The scopes this user may give a key, in SCOPES order. */
  grantable: readonly Scope[];
  created?: NewKey | undefined;
  draft: KeyDraft;
  errors: FieldErrors;
}

const checkboxId = (scope: Scope) => `scope-${scope.replace(/[^a-z0-9]+/g, "-")}`;

/** What a rotation did to the key it replaced, in words. */
function replacedNote(replaced: NonNullable<NewKey["replaced"]>) {
  const old = replaced.prefix === null ? "the old key" : <code>{replaced.prefix}…</code>;
  if (replaced.until === null) return <p>It replaces {old}, which has stopped working.</p>;
  return (
    <p>
      It replaces {old}, which keeps working until{" "}
      <time datetime={replaced.until.toISOString()}>{formatDateTime(replaced.until)}</time>: switch your
      programs to the new key before then.
    </p>
  );
}

/** The value of a key just made or rotated, with a copy button; the only time it is ever shown. */
const NewKeyPanel: FC<{ created: NewKey }> = ({ created }) => (
  <section class="panel panel-highlight" aria-labelledby="new-key-title">
    <h2 id="new-key-title">Your new key “{created.name}”</h2>
    {created.replaced ? replacedNote(created.replaced) : null}
    <p>Copy it now: this is the only time it is shown.</p>
    <div class="copy-row">
      <Input name="new_key" id="new-key" label="Key" value={created.secret} readonly />
      <button type="button" class="button button-secondary" data-copy="new-key" hidden>
        Copy key
      </button>
    </div>
    <dl class="key-terms">
      <dt>Scopes</dt>
      <dd>{scopeList(created.scopes)}</dd>
      <dt>Expires</dt>
      <dd>{created.expiresAt ? formatDateTime(created.expiresAt) : "Never"}</dd>
    </dl>
  </section>
);

/**
 * `/account/keys`: create a key limited to some scopes and expiring (its value shown once, with a
 * copy button), list the keys, rotate or deactivate one.
 */
export const ApiKeysPage: FC<{ ctx: PageContext; view: ApiKeysView }> = ({ ctx, view }) => {
  const { draft, errors } = view;
  const firstBox = view.grantable[0];
  return (
    <Layout ctx={ctx} title="API keys">
      <p class="breadcrumb">
        <a href="/account">Account</a>
      </p>
      <ErrorSummary errors={errors} ids={firstBox ? { scopes: checkboxId(firstBox) } : {}} />
      <h1>API keys</h1>
      <p class="lead">
        A key lets a program or an AI agent use the <a href="/docs">JSON API</a> as you: send it in the{" "}
        <code>X-API-Key</code> header. Give it only the scopes it needs, and deactivate it as soon as you no
        longer need it. Rotating a key makes a new one and lets the old one work a little longer, so you can
        switch without a break.
      </p>
      {view.created ? <NewKeyPanel created={view.created} /> : null}
      <FormPanel
        ctx={ctx}
        id="create-key-title"
        title="Create a key"
        action="/account/keys"
        submit="Create key"
      >
        <Input
          name="name"
          label="Name"
          hint="What uses it, such as “pricing agent”."
          value={draft.name}
          error={errors.name}
          maxlength={100}
          required
        />
        <Checkboxes
          id="scopes"
          legend="Scopes"
          hint="Tick what the key may do. Tick none for full access: everything you may do, like keys made before scopes."
          error={errors.scopes}
          items={view.grantable.map((scope) => ({
            name: scopeField(scope),
            id: checkboxId(scope),
            label: <code>{scope}</code>,
            hint: SCOPE_DESCRIPTIONS[scope],
            checked: draft.scopes.includes(scope),
          }))}
        />
        <Select
          name="expires_in"
          label="Expires"
          hint="An expired key stops working by itself."
          value={draft.expiresIn}
          error={errors.expires_in}
          options={EXPIRY_CHOICES}
        />
      </FormPanel>
      <section aria-labelledby="keys-title">
        <h2 id="keys-title">Your keys</h2>
        {view.keys.length === 0 ? (
          <p class="empty">You have no API keys.</p>
        ) : (
          <KeyTable ctx={ctx} keys={view.keys} now={view.now} userId={view.userId} />
        )}
      </section>
    </Layout>
  );
};

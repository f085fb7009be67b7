import type { ApiKey } from "@psm/core";
import type { FC } from "hono/jsx";
import { DataTable } from "../components/data-table.js";
import { ErrorSummary, Input } from "../components/field.js";
import { FormPanel } from "../components/form-panel.js";
import { Layout } from "../components/layout.js";
import { RowButton } from "../components/row-actions.js";
import { formatDateTime } from "../format.js";
import type { FieldErrors } from "../forms.js";
import type { PageContext } from "../render.js";

/** The keys page's state: the keys, a key just made (its value, shown once), and the form's problems. */
export interface ApiKeysView {
  keys: ApiKey[];
  created?: { name: string; secret: string } | undefined;
  name: string;
  errors: FieldErrors;
}

/** `/account/keys`: create a key (its value shown once, with a copy button), list them, deactivate one. */
export const ApiKeysPage: FC<{ ctx: PageContext; view: ApiKeysView }> = ({ ctx, view }) => (
  <Layout ctx={ctx} title="API keys">
    <p class="breadcrumb">
      <a href="/account">Account</a>
    </p>
    <ErrorSummary errors={view.errors} />
    <h1>API keys</h1>
    <p class="lead">
      A key lets a program or an AI agent use the <a href="/docs">JSON API</a> as you: send it in the{" "}
      <code>X-API-Key</code> header. Deactivate a key as soon as you no longer need it.
    </p>
    {view.created ? (
      <section class="panel panel-highlight" aria-labelledby="new-key-title">
        <h2 id="new-key-title">Your new key “{view.created.name}”</h2>
        <p>Copy it now: this is the only time it is shown.</p>
        <div class="copy-row">
          <Input name="new_key" id="new-key" label="Key" value={view.created.secret} readonly />
          <button type="button" class="button button-secondary" data-copy="new-key" hidden>
            Copy key
          </button>
        </div>
      </section>
    ) : null}
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
        value={view.name}
        error={view.errors.name}
        maxlength={100}
        required
      />
    </FormPanel>
    <section aria-labelledby="keys-title">
      <h2 id="keys-title">Your keys</h2>
      {view.keys.length === 0 ? (
        <p class="empty">You have no API keys.</p>
      ) : (
        <DataTable columns={["Name", "Created", "Last used", "Status"]}>
          {view.keys.map((key) => (
            <tr>
              <th scope="row">{key.name}</th>
              <td>{formatDateTime(key.createdAt)}</td>
              <td>{key.lastUsed ? formatDateTime(key.lastUsed) : "Never"}</td>
              <td>
                <span class={key.isActive ? "badge badge-active" : "badge badge-expired"}>
                  {key.isActive ? "Active" : "Deactivated"}
                </span>
              </td>
              <td>
                {key.isActive ? (
                  <RowButton
                    ctx={ctx}
                    action={`/account/keys/${key.id}/deactivate`}
                    label="Deactivate"
                    subject={key.name}
                    tone="danger"
                  />
                ) : null}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  </Layout>
);

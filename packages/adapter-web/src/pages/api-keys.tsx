import type { ApiKey } from "@psm/core";
import type { FC } from "hono/jsx";
import { ErrorSummary, Input } from "../components/field.js";
import { Layout } from "../components/layout.js";
import { PostForm } from "../components/post-form.js";
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
    <section class="panel" aria-labelledby="create-key-title">
      <h2 id="create-key-title">Create a key</h2>
      <PostForm ctx={ctx} action="/account/keys" class="stack">
        <Input
          name="name"
          label="Name"
          hint="What uses it, such as “pricing agent”."
          value={view.name}
          error={view.errors.name}
          maxlength={100}
          required
        />
        <button type="submit" class="button">
          Create key
        </button>
      </PostForm>
    </section>
    <section aria-labelledby="keys-title">
      <h2 id="keys-title">Your keys</h2>
      {view.keys.length === 0 ? (
        <p class="empty">You have no API keys.</p>
      ) : (
        <div class="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
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
                      <PostForm ctx={ctx} action={`/account/keys/${key.id}/deactivate`} class="inline-form">
                        <button type="submit" class="button button-danger button-small">
                          Deactivate<span class="visually-hidden"> {key.name}</span>
                        </button>
                      </PostForm>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  </Layout>
);

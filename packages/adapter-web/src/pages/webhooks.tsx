import { MAX_WEBHOOKS_PER_USER, type Webhook } from "@psm/core";
import type { FC } from "hono/jsx";
import { ErrorSummary } from "../components/field.js";
import { FormPanel } from "../components/form-panel.js";
import { Layout } from "../components/layout.js";
import { NewSecretPanel } from "../components/new-secret-panel.js";
import { TYPE_SUMMARY_IDS, WebhookFields } from "../components/webhook-fields.js";
import { WebhookTable } from "../components/webhook-table.js";
import type { FieldErrors } from "../forms.js";
import type { PageContext } from "../render.js";
import type { WebhookDraft } from "../webhook-form.js";
import { LIMIT_FIELD } from "../webhook-refusals.js";

/** The webhooks page's state: the list, a webhook just made (its secret shown once), the create form. */
export interface WebhooksView {
  webhooks: Webhook[];
  created?: { webhook: Webhook; secret: string } | undefined;
  draft: WebhookDraft;
  errors: FieldErrors;
}

/** What webhooks are, in two sentences: how they are signed and where to read how to verify them. */
export const WebhooksIntro: FC = () => (
  <p class="lead">
    A webhook sends your events (a new message, a change to your listings) as they happen to a URL of your
    program, each POST signed by the <a href="https://www.standardwebhooks.com/">Standard Webhooks</a> scheme.
    Your program verifies every delivery with the webhook's secret before trusting it: the{" "}
    <a href="/docs">API documentation</a> shows how.
  </p>
);

/**
 * `/account/webhooks`: what webhooks are, a create form (its secret shown once, with a copy
 * button), and the user's webhooks, each a link to its own page.
 */
export const WebhooksPage: FC<{ ctx: PageContext; view: WebhooksView }> = ({ ctx, view }) => {
  const { created } = view;
  const full = view.webhooks.length >= MAX_WEBHOOKS_PER_USER;
  return (
    <Layout ctx={ctx} title="Webhooks">
      <p class="breadcrumb">
        <a href="/account">Account</a>
      </p>
      <ErrorSummary errors={view.errors} ids={TYPE_SUMMARY_IDS} />
      <h1>Webhooks</h1>
      <WebhooksIntro />
      {created ? (
        <NewSecretPanel title="Your new webhook’s secret" secret={created.secret}>
          <p>
            The webhook for <span class="webhook-url">{created.webhook.url}</span> is created.{" "}
            <a href={`/account/webhooks/${created.webhook.id}`}>Open its page</a> to send a test event.
          </p>
        </NewSecretPanel>
      ) : null}
      <FormPanel
        ctx={ctx}
        id="create-webhook-title"
        title="Create a webhook"
        intro={
          full
            ? `You have ${MAX_WEBHOOKS_PER_USER} webhooks, the most you may have: delete one to create another.`
            : `You may have up to ${MAX_WEBHOOKS_PER_USER} webhooks.`
        }
        action="/account/webhooks"
        submit="Create webhook"
      >
        {view.errors[LIMIT_FIELD] ? (
          <p class="field-error" id={LIMIT_FIELD}>
            <span class="visually-hidden">Error: </span>
            {view.errors[LIMIT_FIELD]}
          </p>
        ) : null}
        <WebhookFields draft={view.draft} errors={view.errors} />
      </FormPanel>
      <section aria-labelledby="webhooks-title">
        <h2 id="webhooks-title">Your webhooks</h2>
        {view.webhooks.length === 0 ? (
          <p class="empty">You have no webhooks.</p>
        ) : (
          <WebhookTable webhooks={view.webhooks} />
        )}
      </section>
    </Layout>
  );
};

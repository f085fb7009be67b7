import type { Webhook, WebhookDelivery } from "@psm/core";
import type { FC } from "hono/jsx";
import { DeliveryTable } from "../components/delivery-table.js";
import { ErrorSummary } from "../components/field.js";
import { FormPanel } from "../components/form-panel.js";
import { Layout } from "../components/layout.js";
import { at } from "../components/moment.js";
import { NewSecretPanel } from "../components/new-secret-panel.js";
import { NextPage } from "../components/next-page.js";
import { WebhookActions } from "../components/webhook-actions.js";
import { TYPE_SUMMARY_IDS, WebhookFields } from "../components/webhook-fields.js";
import { previousSecretEnd, WebhookSettings } from "../components/webhook-settings.js";
import type { FieldErrors } from "../forms.js";
import type { PageContext } from "../render.js";
import type { WebhookDraft } from "../webhook-form.js";

/** One webhook's page: its settings, the edit form, a secret just rotated, and a page of its deliveries. */
export interface WebhookView {
  webhook: Webhook;
  now: Date;
  draft: WebhookDraft;
  errors: FieldErrors;
  /** The secret of the rotation this answer made: shown once. */
  rotated?: string | undefined;
  deliveries: WebhookDelivery[];
  /** The query string of the deliveries' next page, or null. */
  next: string | null;
  /** Whether this is a later page of deliveries (the first page says when there are none). */
  paged: boolean;
}

/** What a rotation did to the secret it replaced, in words. */
const RotationNote: FC<{ end: Date | null }> = ({ end }) =>
  end === null ? (
    <p>Deliveries are signed with it from now on.</p>
  ) : (
    <p>
      Deliveries are signed with it from now on. The old secret keeps signing beside it for 24 hours, until{" "}
      {at(end)}: switch your program to the new secret before then.
    </p>
  );

/**
 * `/account/webhooks/:id`: one webhook's settings and edit form; turn off or on, send a test event,
 * rotate its secret (shown once), replay past events, delete it (a confirmation step); and its
 * delivery log, newest first, page by page.
 */
export const WebhookPage: FC<{ ctx: PageContext; view: WebhookView }> = ({ ctx, view }) => {
  const { webhook } = view;
  const base = `/account/webhooks/${webhook.id}`;
  return (
    <Layout ctx={ctx} title="Webhook">
      <p class="breadcrumb">
        <a href="/account/webhooks">Webhooks</a>
      </p>
      <ErrorSummary errors={view.errors} ids={TYPE_SUMMARY_IDS} />
      <h1>Webhook</h1>
      <p class="lead webhook-url">{webhook.url}</p>
      {view.rotated ? (
        <NewSecretPanel title="Your webhook’s new secret" secret={view.rotated}>
          <RotationNote end={previousSecretEnd(webhook, view.now)} />
        </NewSecretPanel>
      ) : null}
      <WebhookSettings webhook={webhook} now={view.now} />
      <WebhookActions ctx={ctx} webhook={webhook} />
      <section aria-labelledby="deliveries-title">
        <h2 id="deliveries-title">Deliveries</h2>
        {view.deliveries.length === 0 ? (
          <p class="empty">
            {view.paged ? "No older deliveries." : "No deliveries yet: send a test event to see one here."}
          </p>
        ) : (
          <DeliveryTable deliveries={view.deliveries} />
        )}
        <NextPage path={base} query={view.next} label="Older deliveries" />
      </section>
      <FormPanel
        ctx={ctx}
        id="edit-title"
        title="Change settings"
        action={`${base}/edit`}
        submit="Save changes"
      >
        <WebhookFields draft={view.draft} errors={view.errors} />
      </FormPanel>
      <section class="panel" aria-labelledby="delete-title">
        <h2 id="delete-title">Delete</h2>
        <p>Deletes the webhook and its delivery log. Nothing more is sent to its URL.</p>
        <a class="button button-danger" href={`${base}/delete`}>
          Delete webhook
        </a>
      </section>
    </Layout>
  );
};

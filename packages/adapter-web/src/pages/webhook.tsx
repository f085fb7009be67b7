import type { Webhook, WebhookDelivery } from "@psm/core";
import type { FC } from "hono/jsx";
import { DeliveryTable } from "../components/delivery-table.js";
import { ErrorSummary, Select } from "../components/field.js";
import { FormPanel } from "../components/form-panel.js";
import { Layout } from "../components/layout.js";
import { NewSecretPanel } from "../components/new-secret-panel.js";
import { NextPage } from "../components/next-page.js";
import { TYPE_SUMMARY_IDS, WebhookFields } from "../components/webhook-fields.js";
import { WebhookState } from "../components/webhook-state.js";
import { typeList } from "../components/webhook-table.js";
import { formatDateTime } from "../format.js";
import type { FieldErrors } from "../forms.js";
import type { PageContext } from "../render.js";
import { REPLAY_CHOICES, type WebhookDraft } from "../webhook-form.js";

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

const at = (date: Date) => <time datetime={date.toISOString()}>{formatDateTime(date)}</time>;

/** When the secret a rotation replaced stops signing, if it still signs at `now`. */
function previousSecretEnd(webhook: Webhook, now: Date): Date | null {
  const end = webhook.secrets[1]?.expiresAt ?? null;
  return end && end.getTime() > now.getTime() ? end : null;
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

/** What the webhook is now: where it sends, what, the note, its state and its secrets. */
const Settings: FC<{ webhook: Webhook; now: Date }> = ({ webhook, now }) => {
  const previousEnd = previousSecretEnd(webhook, now);
  return (
    <section class="panel" aria-labelledby="settings-title">
      <h2 id="settings-title">Settings</h2>
      <dl class="key-terms">
        <dt>URL</dt>
        <dd class="webhook-url">{webhook.url}</dd>
        <dt>Event types</dt>
        <dd>{typeList(webhook.types)}</dd>
        <dt>Description</dt>
        <dd class="webhook-description">{webhook.description === "" ? "None" : webhook.description}</dd>
        <dt>State</dt>
        <dd>
          <WebhookState webhook={webhook} />
        </dd>
        <dt>Created</dt>
        <dd>{at(webhook.createdAt)}</dd>
        <dt>Secret</dt>
        <dd>
          {previousEnd ? (
            <>Rotated: the previous secret also signs until {at(previousEnd)}.</>
          ) : (
            "One secret signs each delivery."
          )}
        </dd>
      </dl>
    </section>
  );
};

/** The buttons that act on the webhook at once: on or off, a test, a new secret, a replay. */
const Actions: FC<{ ctx: PageContext; webhook: Webhook }> = ({ ctx, webhook }) => {
  const base = `/account/webhooks/${webhook.id}`;
  return (
    <div class="webhook-actions">
      {webhook.enabled ? (
        <FormPanel
          ctx={ctx}
          id="test-title"
          title="Send a test event"
          intro="Sends a webhook.test event to this URL alone; it shows in the delivery log below."
          action={`${base}/test`}
          submit="Send a test event"
          secondary
        />
      ) : null}
      <FormPanel
        ctx={ctx}
        id="enabled-title"
        title={webhook.enabled ? "Turn off" : "Turn on"}
        intro={
          webhook.enabled
            ? "Stops deliveries until you turn it on again. Events in the meantime are not sent."
            : "Deliveries start again with the next event. To send what happened meanwhile, replay it."
        }
        action={`${base}/enabled`}
        submit={webhook.enabled ? "Turn off" : "Turn on"}
        secondary
      >
        <input type="hidden" name="enabled" value={webhook.enabled ? "false" : "true"} />
      </FormPanel>
      <FormPanel
        ctx={ctx}
        id="rotate-title"
        title="Rotate secret"
        intro="Makes a new secret, shown once. The old secret keeps signing beside it for 24 hours, so your program can switch without missing a delivery."
        action={`${base}/rotate`}
        submit="Rotate secret"
        secondary
      />
      <FormPanel
        ctx={ctx}
        id="replay-title"
        title="Replay since"
        intro="Sends again every event this webhook receives since then, with their original ids (webhook-id), so your program can tell repeats."
        action={`${base}/replay`}
        submit="Replay events"
        secondary
      >
        <Select name="since_seconds" label="Replay events from" value="3600" options={REPLAY_CHOICES} />
      </FormPanel>
    </div>
  );
};

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
      <Settings webhook={webhook} now={view.now} />
      <Actions ctx={ctx} webhook={webhook} />
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

import type { FC } from "hono/jsx";
import { Select } from "../components/field.js";
import { FormPanel } from "../components/form-panel.js";
import { NarrowPage } from "../components/narrow-page.js";
import type { FieldErrors } from "../forms.js";
import type { PageContext } from "../render.js";

const MESSAGE_CHOICES = [
  { value: "instant", label: "Right away (at most one per conversation every 15 minutes)" },
  { value: "off", label: "Never" },
];
const SAVED_SEARCH_CHOICES = [
  { value: "instant", label: "Right away (at most hourly per saved search)" },
  { value: "daily", label: "Once a day, as a digest" },
  { value: "off", label: "Never" },
];

/** The settings form's state: what is in force (or as sent, with its problems). */
export interface NotificationSettingsView {
  settings: { messageMail: string; savedSearchMail: string };
  errors: FieldErrors;
  /** Whether mail can reach the user at all: only proven addresses get notification mail. */
  proven: boolean;
}

/** `/account/notifications`: which mails the user gets; each mail also carries a one-click unsubscribe. */
export const NotificationSettingsPage: FC<{ ctx: PageContext; view: NotificationSettingsView }> = ({
  ctx,
  view,
}) => (
  <NarrowPage ctx={ctx} title="Notification settings" errors={view.errors}>
    <p class="breadcrumb">
      <a href="/account">Account</a>
    </p>
    {view.proven ? (
      <p>We mail {ctx.user?.email} when something happens that you asked to hear about.</p>
    ) : (
      <p class="notice notice-error">
        Your address is not confirmed yet, so we send it no notifications: follow the link we mailed you at
        sign-up.
      </p>
    )}
    <FormPanel
      ctx={ctx}
      id="notifications-title"
      title="Mails"
      action="/account/notifications"
      submit="Save settings"
    >
      <Select
        name="message_mail"
        label="New messages"
        hint="Names the listing and the sender and quotes the start of the message."
        value={view.settings.messageMail}
        error={view.errors.message_mail}
        options={MESSAGE_CHOICES}
      />
      <Select
        name="saved_search_mail"
        label="New listings matching your saved searches"
        value={view.settings.savedSearchMail}
        error={view.errors.saved_search_mail}
        options={SAVED_SEARCH_CHOICES}
      />
    </FormPanel>
  </NarrowPage>
);

import { type Context, Hono } from "hono";
import { setFlash } from "../cookies.js";
import type { WebEnv } from "../env.js";
import { type FieldErrors, formRefusal } from "../forms.js";
import { formGuard, readLimit, signedIn, userOf } from "../guard.js";
import type { WebConfig } from "../options.js";
import { NotificationSettingsPage, type NotificationSettingsView } from "../pages/notification-settings.js";
import { render } from "../render.js";

const FIELDS = {
  messageMail: { field: "message_mail", label: "New messages" },
  savedSearchMail: { field: "saved_search_mail", label: "New listings matching your saved searches" },
};

/** `/account/notifications`: read and change which notification mails the user gets. */
export function notificationRoutes(config: WebConfig): Hono<WebEnv> {
  const m = config.marketplace;
  const app = new Hono<WebEnv>();
  app.use("/account/notifications", signedIn(config));

  const settingsPage = (
    c: Context<WebEnv>,
    settings: NotificationSettingsView["settings"],
    errors: FieldErrors,
    status: 200 | 400 = 200,
  ) => {
    const proven = userOf(c).user.emailVerifiedAt !== null;
    const view: NotificationSettingsView = { settings, errors, proven };
    return render(c, config, (ctx) => <NotificationSettingsPage ctx={ctx} view={view} />, status);
  };

  app.get("/account/notifications", readLimit(config), async (c) =>
    settingsPage(c, await m.notifications.get(userOf(c)), {}),
  );

  app.post("/account/notifications", formGuard(config, "write"), async (c) => {
    const form = c.get("form");
    const asked = { messageMail: form.message_mail ?? "", savedSearchMail: form.saved_search_mail ?? "" };
    try {
      // Core checks each value against its choices: a crafted form gets the field's own message.
      await m.notifications.update(userOf(c), asked as Parameters<typeof m.notifications.update>[1]);
    } catch (error) {
      const refusal = formRefusal(error, FIELDS);
      if (!refusal) throw error;
      return settingsPage(c, asked, refusal.errors, 400);
    }
    setFlash(c, config, { tone: "ok", text: "Your notification settings are saved." });
    return c.redirect("/account/notifications", 303);
  });
  return app;
}

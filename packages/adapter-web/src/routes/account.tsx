import { changePasswordSchema, inputIssues } from "@psm/core";
import { type Context, Hono } from "hono";
import { setFlash } from "../cookies.js";
import type { WebEnv } from "../env.js";
import { type FieldErrors, type FormRefusal, type FormStatus, formRefusal, issueErrors } from "../forms.js";
import { formGuard, readLimit, signedIn, userOf } from "../guard.js";
import type { WebConfig } from "../options.js";
import { AccountPage } from "../pages/account.js";
import { render } from "../render.js";
import { startSession } from "../session.js";
import { keyRoutes } from "./api-keys.js";
import { savedSearchRoutes } from "./saved-searches.js";
import { webhooksRoutes } from "./webhooks.js";

const NAME_FIELD = { displayName: { field: "display_name", label: "Display name" } };
const PASSWORD_FIELDS = {
  currentPassword: { field: "current_password", label: "Current password" },
  newPassword: { field: "new_password", label: "New password" },
};
// 401, as a failed log-in is answered: the confirm limiter counts it as one.
const WRONG_PASSWORD: FormRefusal = {
  errors: { current_password: "Current password is wrong" },
  status: 401,
};

/** `/account` (display name, password), `/account/keys` (API keys) and `/account/webhooks`. */
export function accountRoutes(config: WebConfig): Hono<WebEnv> {
  const m = config.marketplace;
  const app = new Hono<WebEnv>();
  const connectedApps = m.settings.oauth !== undefined;
  app.use("/account", signedIn(config));
  app.use("/account/*", signedIn(config));

  const accountPage = (
    c: Context<WebEnv>,
    displayName: string,
    errors: FieldErrors,
    status: FormStatus = 200,
  ) =>
    render(
      c,
      config,
      (ctx) => <AccountPage ctx={ctx} view={{ displayName, errors, connectedApps }} />,
      status,
    );

  app.get("/account", readLimit(config), (c) => accountPage(c, userOf(c).user.displayName, {}));

  app.post("/account/profile", formGuard(config, "write"), async (c) => {
    const displayName = c.get("form").display_name ?? "";
    try {
      await m.users.updateDisplayName(userOf(c), { displayName });
    } catch (error) {
      const refusal = formRefusal(error, NAME_FIELD);
      if (!refusal) throw error;
      return accountPage(c, displayName, refusal.errors, refusal.status);
    }
    setFlash(c, config, { tone: "ok", text: "Your display name is saved." });
    return c.redirect("/account", 303);
  });

  // A confirmation of the current password: its failures count as failed logins of the account.
  app.post("/account/password", formGuard(config, "confirm"), async (c) => {
    const actor = userOf(c);
    const form = c.get("form");
    const command = { currentPassword: form.current_password ?? "", newPassword: form.new_password ?? "" };
    // A typo check of this form, not a rule of the account: core never sees the confirmation. The
    // change must not run then, so core only says what else is wrong, to show it all at once.
    if (command.newPassword !== (form.confirm_password ?? "")) {
      const errors = issueErrors(inputIssues(changePasswordSchema, command), PASSWORD_FIELDS);
      // A new password core refuses is to be fixed before it is confirmed.
      if (errors.new_password === undefined) {
        errors.confirm_password = "Confirm new password does not match the new password";
      }
      return accountPage(c, actor.user.displayName, errors, 400);
    }
    try {
      await m.auth.changePassword(actor, command);
    } catch (error) {
      const refusal = formRefusal(error, PASSWORD_FIELDS, { invalid_credentials: WRONG_PASSWORD });
      if (!refusal) throw error;
      return accountPage(c, actor.user.displayName, refusal.errors, refusal.status);
    }
    // The change ended every session of the user, this one too: this browser signs in afresh.
    const { token } = await m.auth.logIn({ email: actor.user.email, password: command.newPassword });
    await startSession(c, config, await m.auth.authenticate({ bearer: token }));
    setFlash(c, config, {
      tone: "ok",
      text: "Your password is changed. Every other browser and API token signed in with the old one is logged out.",
    });
    return c.redirect("/account", 303);
  });

  // Registered on this app, behind its signedIn.
  keyRoutes(app, config);
  webhooksRoutes(app, config);
  savedSearchRoutes(app, config);

  return app;
}

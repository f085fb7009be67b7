import { changePasswordSchema, inputIssues } from "@psm/core";
import { type Context, Hono } from "hono";
import { setFlash } from "../cookies.js";
import type { Flash, WebEnv } from "../env.js";
import {
  type FieldErrors,
  type FormRefusal,
  type FormStatus,
  fieldErrorsOf,
  formRefusal,
  issueErrors,
} from "../forms.js";
import { formGuard, readLimit, signedIn, userOf } from "../guard.js";
import { once } from "../once.js";
import type { WebConfig } from "../options.js";
import { AccountPage } from "../pages/account.js";
import { ApiKeysPage, type ApiKeysView } from "../pages/api-keys.js";
import { redirectAfter, type WriteOutcome } from "../redirect-after.js";
import { type PageContext, render } from "../render.js";
import { startSession } from "../session.js";

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
const KEY_NAME_FIELD = { name: { field: "name", label: "Name" } };
const KEY_DEACTIVATE: WriteOutcome<unknown> = {
  done: { tone: "ok", text: "The key is deactivated: it no longer works." },
  refusals: { key_not_found: { tone: "error", text: "That key was not found." } },
};
const KEY_CREATED: Flash = { tone: "ok", text: "Your API key is created." };
const KEY_ALREADY_CREATED: Flash = {
  tone: "ok",
  text: "This form already created your API key; its value was shown once, on the page that created it.",
};

/** `/account` (display name, password) and `/account/keys` (API keys). */
export function accountRoutes(config: WebConfig): Hono<WebEnv> {
  const m = config.marketplace;
  const app = new Hono<WebEnv>();
  app.use("/account", signedIn(config));
  app.use("/account/*", signedIn(config));

  const accountPage = (
    c: Context<WebEnv>,
    displayName: string,
    errors: FieldErrors,
    status: FormStatus = 200,
  ) => render(c, config, (ctx) => <AccountPage ctx={ctx} view={{ displayName, errors }} />, status);

  const keysPage = async (
    c: Context<WebEnv>,
    name: string,
    errors: FieldErrors,
    status: 200 | 201 | 400 = 200,
    created?: ApiKeysView["created"],
  ) => {
    const keys = await m.apiKeys.list(userOf(c), { limit: 100 });
    const view: ApiKeysView = { keys: keys.items, name, errors, created };
    // The page that shows a new key says so itself: a flash cookie would wait for the next page.
    const page = (ctx: PageContext) => (
      <ApiKeysPage ctx={created ? { ...ctx, flash: KEY_CREATED } : ctx} view={view} />
    );
    return render(c, config, page, status);
  };

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

  app.get("/account/keys", readLimit(config), (c) => keysPage(c, "", {}));

  app.post("/account/keys", formGuard(config, "write"), async (c) => {
    const actor = userOf(c);
    const name = c.get("form").name ?? "";
    let created: { name: string; secret: string } | undefined;
    return once<FieldErrors>(c, config, actor, {
      route: "create_key",
      work: async (bound) => {
        try {
          const { apiKey, secret } = await bound.apiKeys.create(actor, { name });
          created = { name: apiKey.name, secret };
        } catch (error) {
          const problem = fieldErrorsOf(error, KEY_NAME_FIELD);
          if (problem) return { refused: problem };
          throw error;
        }
        // Kept for a resent form, which is told the key exists but never sees its value.
        return { redirect: "/account/keys", flash: KEY_ALREADY_CREATED };
      },
      refused: (problem) => keysPage(c, name, problem, 400),
      // Only the answer that made the key carries its value, in its body (no-store), never in a cookie.
      fresh: () => keysPage(c, "", {}, 201, created),
    });
  });

  app.post("/account/keys/:id/deactivate", formGuard(config, "write"), (c) => {
    const deactivate = () => m.apiKeys.deactivate(userOf(c), { id: c.req.param("id") });
    return redirectAfter(c, config, "/account/keys", deactivate, KEY_DEACTIVATE);
  });

  return app;
}

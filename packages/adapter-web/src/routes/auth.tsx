import { safeRedirectPath } from "@psm/host";
import { type Context, Hono } from "hono";
import { setFlash } from "../cookies.js";
import type { Flash, WebEnv } from "../env.js";
import { type FieldErrors, type FormRefusal, type FormStatus, formRefusal } from "../forms.js";
import { formGuard, readLimit } from "../guard.js";
import type { WebConfig } from "../options.js";
import { ForgotPasswordPage } from "../pages/forgot-password.js";
import { LogInPage, type LogInView } from "../pages/log-in.js";
import { SignUpPage, type SignUpView } from "../pages/sign-up.js";
import { redirectAfter } from "../redirect-after.js";
import { render } from "../render.js";
import { endSession, startSession } from "../session.js";

const SIGN_UP_FIELDS = {
  email: { field: "email", label: "Email" },
  password: { field: "password", label: "Password" },
  displayName: { field: "display_name", label: "Display name" },
};
const EMAIL_FIELD = { email: { field: "email", label: "Email" } };
const LOG_IN_FIELDS = { ...EMAIL_FIELD, password: { field: "password", label: "Password" } };
const EMAIL_TAKEN: FormRefusal = {
  errors: { email: "An account with this email already exists: log in, or reset its password" },
  status: 400,
};
// 401: the login limiter counts it as a failed attempt.
const WRONG_CREDENTIALS: FormRefusal = {
  errors: { password: "The email or the password is wrong" },
  status: 401,
};
const LOGGED_OUT: Flash = { tone: "ok", text: "You are logged out." };

/** Proves the password through core and opens a browser session for that user. */
async function signIn(c: Context<WebEnv>, config: WebConfig, email: string, password: string) {
  const m = config.marketplace;
  const { token } = await m.auth.logIn({ email, password });
  await startSession(c, config, await m.auth.authenticate({ bearer: token }));
}

/** Sign up, log in, log out and "forgot password" (the mailed link's page is mailed-links.tsx). */
export function authRoutes(config: WebConfig): Hono<WebEnv> {
  const m = config.marketplace;
  const app = new Hono<WebEnv>();

  const signUpPage = (c: Context<WebEnv>, view: SignUpView, status: FormStatus = 200) =>
    render(c, config, (ctx) => <SignUpPage ctx={ctx} view={view} />, status);
  const logInPage = (c: Context<WebEnv>, view: LogInView, status: FormStatus = 200) =>
    render(c, config, (ctx) => <LogInPage ctx={ctx} view={view} />, status);
  const forgotPage = (c: Context<WebEnv>, email: string, errors: FieldErrors, status: FormStatus = 200) =>
    render(c, config, (ctx) => <ForgotPasswordPage ctx={ctx} view={{ email, errors }} />, status);

  app.get("/signup", readLimit(config), (c) => {
    if (c.get("actor").kind === "user") return c.redirect("/", 303);
    return signUpPage(c, { email: "", displayName: "", errors: {} });
  });

  app.post("/signup", formGuard(config, "signup"), async (c) => {
    const form = c.get("form");
    const view: SignUpView = { email: form.email ?? "", displayName: form.display_name ?? "", errors: {} };
    const command = {
      email: view.email,
      password: form.password ?? "",
      displayName: view.displayName.trim() === "" ? undefined : view.displayName,
    };
    try {
      await m.auth.signUp(command);
    } catch (error) {
      const refusal = formRefusal(error, SIGN_UP_FIELDS, { email_taken: EMAIL_TAKEN });
      if (!refusal) throw error;
      return signUpPage(c, { ...view, errors: refusal.errors }, refusal.status);
    }
    await signIn(c, config, command.email, command.password);
    setFlash(c, config, {
      tone: "ok",
      text: "Welcome! Your account is ready. We sent you a link to confirm your email address.",
    });
    // Without a name of their own, the account page is where they can choose one (it suggests it).
    return c.redirect(command.displayName === undefined ? "/account" : "/", 303);
  });

  app.get("/login", readLimit(config), (c) => {
    const next = safeRedirectPath(c.req.query("next"));
    if (c.get("actor").kind === "user") return c.redirect(next, 303);
    return logInPage(c, { email: "", next, errors: {} });
  });

  // The login limiter reads the form's email (c.var.body) and counts this page's 401s as failures.
  app.post("/login", formGuard(config, "login"), async (c) => {
    const form = c.get("form");
    const view: LogInView = { email: form.email ?? "", next: safeRedirectPath(form.next), errors: {} };
    const password = form.password ?? "";
    try {
      await signIn(c, config, view.email, password);
    } catch (error) {
      const refusal = formRefusal(error, LOG_IN_FIELDS, { invalid_credentials: WRONG_CREDENTIALS });
      if (!refusal) throw error;
      return logInPage(c, { ...view, errors: refusal.errors }, refusal.status);
    }
    return c.redirect(view.next, 303);
  });

  app.post("/logout", formGuard(config, "write"), (c) =>
    redirectAfter(c, config, "/", () => endSession(c, config), { done: LOGGED_OUT }),
  );

  app.get("/forgot-password", readLimit(config), (c) => forgotPage(c, "", {}));

  app.post("/forgot-password", formGuard(config, "reset"), async (c) => {
    const email = c.get("form").email ?? "";
    try {
      await m.auth.requestPasswordReset({ email });
    } catch (error) {
      const refusal = formRefusal(error, EMAIL_FIELD);
      if (!refusal) throw error;
      return forgotPage(c, email, refusal.errors, refusal.status);
    }
    config.onPasswordResetRequested();
    // The same words whether or not the address has an account: nothing to enumerate.
    setFlash(c, config, {
      tone: "ok",
      text: "If an account uses that address, we have sent it a link to choose a new password. It works for one hour.",
    });
    return c.redirect("/login", 303);
  });

  return app;
}

import { MAX_WEBHOOKS_PER_USER } from "@psm/core";
import type { Context, Hono } from "hono";
import type { Flash, WebEnv } from "../env.js";
import type { FieldErrors } from "../forms.js";
import { formGuard, readLimit, userOf } from "../guard.js";
import { once } from "../once.js";
import type { WebConfig } from "../options.js";
import { WebhooksPage, type WebhooksView } from "../pages/webhooks.js";
import { type PageContext, render } from "../render.js";
import { EMPTY_WEBHOOK_DRAFT, type WebhookDraft, webhookCommand, webhookDraftOf } from "../webhook-form.js";
import { webhookRefusal } from "../webhook-refusals.js";
import { webhookRoutes } from "./webhook.js";

const CREATED: Flash = { tone: "ok", text: "Your webhook is created." };
const ALREADY_CREATED: Flash = {
  tone: "ok",
  text: "This form already created your webhook; its secret was shown once, on the page that created it.",
};

/** `/account/webhooks` (list, create) and each webhook's page; behind accountRoutes' signedIn. */
export function webhooksRoutes(app: Hono<WebEnv>, config: WebConfig): void {
  const m = config.marketplace;

  const webhooksPage = async (
    c: Context<WebEnv>,
    draft: WebhookDraft,
    errors: FieldErrors,
    created?: WebhooksView["created"],
  ) => {
    // The limit is small: every webhook fits on one page.
    const webhooks = (await m.webhooks.list(userOf(c), { limit: MAX_WEBHOOKS_PER_USER })).items;
    const view: WebhooksView = { webhooks, draft, errors, created };
    const status = created ? 201 : Object.keys(errors).length > 0 ? 400 : 200;
    // The page that shows a new secret says so itself: a flash cookie would wait for the next page.
    const page = (ctx: PageContext) => (
      <WebhooksPage ctx={created ? { ...ctx, flash: CREATED } : ctx} view={view} />
    );
    return render(c, config, page, status);
  };

  app.get("/account/webhooks", readLimit(config), (c) => webhooksPage(c, EMPTY_WEBHOOK_DRAFT, {}));

  app.post("/account/webhooks", formGuard(config, "write"), async (c) => {
    const actor = userOf(c);
    const draft = webhookDraftOf(c.get("form"));
    let created: WebhooksView["created"];
    // The URL's DNS lookup before the form's unit of work, which holds the storage while it runs;
    // the use case inside checks again from the transport's memory and reports what is wrong.
    await m.webhooks.checkUrl(actor, { url: draft.url }).catch(() => undefined);
    return once<FieldErrors>(c, config, actor, {
      route: "create_webhook",
      work: async (bound) => {
        const asked = webhookCommand(draft);
        if ("errors" in asked) return { refused: asked.errors };
        try {
          created = await bound.webhooks.create(actor, asked.command);
        } catch (error) {
          const problem = webhookRefusal(error);
          if (problem) return { refused: problem };
          throw error;
        }
        // Kept for a resent form, which is told the webhook exists but never sees its secret.
        return { redirect: "/account/webhooks", flash: ALREADY_CREATED };
      },
      refused: (problem) => webhooksPage(c, draft, problem),
      // Only the answer that made the webhook carries its secret, in its body (no-store).
      fresh: () => webhooksPage(c, EMPTY_WEBHOOK_DRAFT, {}, created),
    });
  });

  webhookRoutes(app, config);
}

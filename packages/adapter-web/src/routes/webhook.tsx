import { isMarketplaceError } from "@psm/core";
import type { Context, Hono } from "hono";
import { setFlash } from "../cookies.js";
import type { Flash, WebEnv } from "../env.js";
import type { FieldErrors } from "../forms.js";
import { formGuard, readLimit, userOf } from "../guard.js";
import { once } from "../once.js";
import type { WebConfig } from "../options.js";
import { ConfirmPage } from "../pages/confirm.js";
import { WebhookPage, type WebhookView } from "../pages/webhook.js";
import { redirectAfter } from "../redirect-after.js";
import { type PageContext, render } from "../render.js";
import {
  draftOfWebhook,
  replaySince,
  type WebhookDraft,
  webhookCommand,
  webhookDraftOf,
} from "../webhook-form.js";
import {
  ALREADY_ROTATED,
  BAD_SINCE,
  DELETE,
  ENABLED,
  ROTATED,
  replayed,
  SAVED,
  TEST_SENT,
  TURNED_OFF_NO_TEST,
} from "../webhook-notices.js";
import { webhookRefusal } from "../webhook-refusals.js";

const DELIVERIES_PER_PAGE = 20;

/** What the rest of the detail page shows besides the stored webhook. */
interface Shown {
  draft?: WebhookDraft;
  errors?: FieldErrors;
  rotated?: string;
}

/** `/account/webhooks/:id` and its forms; another user's webhook or an unknown id is the 404 page. */
export function webhookRoutes(app: Hono<WebEnv>, config: WebConfig): void {
  const m = config.marketplace;
  // Encoded: a redirect may be built before core has looked at the id.
  const pathOf = (c: Context<WebEnv>) => `/account/webhooks/${encodeURIComponent(c.req.param("id") ?? "")}`;

  const detailPage = async (c: Context<WebEnv>, shown: Shown = {}) => {
    const actor = userOf(c);
    const id = c.req.param("id") ?? "";
    const webhook = await m.webhooks.get(actor, { id });
    const cursor = c.req.query("cursor");
    const page = await m.webhooks.deliveries(actor, { id, limit: DELIVERIES_PER_PAGE, cursor });
    const errors = shown.errors ?? {};
    const view: WebhookView = {
      webhook,
      now: m.now(),
      draft: shown.draft ?? draftOfWebhook(webhook),
      errors,
      rotated: shown.rotated,
      deliveries: page.items,
      next: page.nextCursor === null ? null : new URLSearchParams({ cursor: page.nextCursor }).toString(),
      paged: cursor !== undefined,
    };
    const status = shown.rotated ? 201 : Object.keys(errors).length > 0 ? 400 : 200;
    const answer = (ctx: PageContext) => (
      <WebhookPage ctx={shown.rotated ? { ...ctx, flash: ROTATED } : ctx} view={view} />
    );
    return render(c, config, answer, status);
  };

  app.get("/account/webhooks/:id", readLimit(config), (c) => detailPage(c));

  app.post("/account/webhooks/:id/edit", formGuard(config, "write"), async (c) => {
    const draft = webhookDraftOf(c.get("form"));
    const asked = webhookCommand(draft);
    if ("errors" in asked) return detailPage(c, { draft, errors: asked.errors });
    try {
      await m.webhooks.update(userOf(c), { id: c.req.param("id"), ...asked.command });
    } catch (error) {
      const errors = webhookRefusal(error);
      if (!errors) throw error;
      return detailPage(c, { draft, errors });
    }
    setFlash(c, config, SAVED);
    return c.redirect(pathOf(c), 303);
  });

  app.post("/account/webhooks/:id/enabled", formGuard(config, "write"), (c) => {
    const enabled = c.get("form").enabled === "true";
    const change = () => m.webhooks.update(userOf(c), { id: c.req.param("id"), enabled });
    return redirectAfter(c, config, pathOf(c), change, ENABLED);
  });

  // Each of these three runs once per form: a double click sends one test, queues one replay, and
  // makes one secret (a second would end the first's grace at once).
  app.post("/account/webhooks/:id/test", formGuard(config, "write"), (c) =>
    once<Flash>(c, config, userOf(c), {
      route: "test_webhook",
      work: async (bound) => {
        try {
          await bound.webhooks.test(userOf(c), { id: c.req.param("id") });
        } catch (error) {
          // Core's one refusal of a webhook of the caller's: it is turned off.
          if (isMarketplaceError(error, "invalid_input")) return { refused: TURNED_OFF_NO_TEST };
          throw error;
        }
        return { redirect: pathOf(c), flash: TEST_SENT };
      },
      refused: async (flash) => {
        setFlash(c, config, flash);
        return c.redirect(pathOf(c), 303);
      },
    }),
  );

  app.post("/account/webhooks/:id/rotate", formGuard(config, "write"), (c) => {
    let rotated: string | undefined;
    return once<never>(c, config, userOf(c), {
      route: "rotate_webhook_secret",
      work: async (bound) => {
        rotated = (await bound.webhooks.rotateSecret(userOf(c), { id: c.req.param("id") })).secret;
        return { redirect: pathOf(c), flash: ALREADY_ROTATED };
      },
      refused: async () => c.redirect(pathOf(c), 303),
      // Only the answer that made the secret carries it, in its body (no-store), never in a cookie.
      fresh: () => detailPage(c, rotated === undefined ? {} : { rotated }),
    });
  });

  app.post("/account/webhooks/:id/replay", formGuard(config, "write"), (c) =>
    once<Flash>(c, config, userOf(c), {
      route: "replay_webhook",
      work: async (bound) => {
        const since = replaySince(c.get("form"), bound.now());
        if (since === null) return { refused: BAD_SINCE };
        const outcome = await bound.webhooks.replay(userOf(c), {
          id: c.req.param("id"),
          since: since.toISOString(),
        });
        return { redirect: pathOf(c), flash: replayed(outcome) };
      },
      refused: async (flash) => {
        setFlash(c, config, flash);
        return c.redirect(pathOf(c), 303);
      },
    }),
  );

  app.get("/account/webhooks/:id/delete", readLimit(config), async (c) => {
    const webhook = await m.webhooks.get(userOf(c), { id: c.req.param("id") });
    const confirmation = {
      question: "Delete this webhook?",
      detail: `Nothing more is sent to ${webhook.url}, and its delivery log is deleted with it.`,
      action: `/account/webhooks/${webhook.id}/delete`,
      confirm: "Delete webhook",
      cancel: `/account/webhooks/${webhook.id}`,
    };
    return render(c, config, (ctx) => <ConfirmPage ctx={ctx} confirmation={confirmation} />);
  });

  app.post("/account/webhooks/:id/delete", formGuard(config, "write"), (c) => {
    const remove = () => m.webhooks.delete(userOf(c), { id: c.req.param("id") });
    return redirectAfter(c, config, "/account/webhooks", remove, DELETE);
  });
}

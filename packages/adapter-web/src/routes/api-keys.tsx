import {
  type ApiKey,
  DEFAULT_ROTATION_GRACE_SECONDS,
  type ErrorCode,
  grantableScopes,
  isAdmin,
  isMarketplaceError,
  type Scope,
} from "@psm/core";
import type { Context, Hono } from "hono";
import { setFlash } from "../cookies.js";
import type { Flash, WebEnv } from "../env.js";
import { type FieldErrors, fieldErrorsOf } from "../forms.js";
import { formGuard, readLimit, userOf } from "../guard.js";
import { createCommand, EMPTY_DRAFT, graceOf, type KeyDraft, keyDraftOf } from "../key-form.js";
import { once } from "../once.js";
import type { WebConfig } from "../options.js";
import { ApiKeysPage, type ApiKeysView, type NewKey } from "../pages/api-keys.js";
import { redirectAfter, type WriteOutcome } from "../redirect-after.js";
import { type PageContext, render } from "../render.js";

const KEY_FIELDS = {
  name: { field: "name", label: "Name" },
  scopes: { field: "scopes", label: "Scopes" },
  expiresAt: { field: "expires_in", label: "Expires" },
};
const KEY_DEACTIVATE: WriteOutcome<unknown> = {
  done: { tone: "ok", text: "The key is deactivated: it no longer works." },
  refusals: { key_not_found: { tone: "error", text: "That key was not found." } },
};
const KEY_CREATED: Flash = { tone: "ok", text: "Your API key is created." };
const KEY_ROTATED: Flash = { tone: "ok", text: "Your API key is rotated." };
const KEY_ALREADY_CREATED: Flash = {
  tone: "ok",
  text: "This form already created your API key; its value was shown once, on the page that created it.",
};
const KEY_ALREADY_ROTATED: Flash = {
  tone: "ok",
  text: "This form already rotated the key; the new key's value was shown once, on the page that rotated it.",
};
const NOTHING_TO_ROTATE: Flash = {
  tone: "error",
  text: "That key was not found, or no longer works: there is nothing to rotate.",
};
const BAD_GRACE: Flash = { tone: "error", text: "Choose how long the old key keeps working from the list." };
const ROTATE_REFUSALS: Partial<Record<ErrorCode, Flash>> = {
  key_not_found: NOTHING_TO_ROTATE,
  insufficient_scope: { tone: "error", text: "You may not rotate that key." },
};

/** A create form's refusal by core, beside its fields; null for what goes to the error page. */
function createRefusal(error: unknown, draft: KeyDraft, offered: readonly Scope[]): FieldErrors | null {
  if (isMarketplaceError(error, "insufficient_scope")) {
    // Only a crafted form names a scope its page did not offer.
    const named = draft.scopes.filter((scope) => !(offered as readonly string[]).includes(scope));
    const which = named.length > 0 ? `: ${named.join(", ")}` : "";
    return { scopes: `Scopes include one you may not give a key${which}` };
  }
  return fieldErrorsOf(error, KEY_FIELDS);
}

/** A rotate form's refusal by core, as a notice on the keys page; null for what goes to the error page. */
function rotateRefusal(error: unknown): Flash | null {
  if (isMarketplaceError(error, "invalid_input")) {
    return error.issues.some((issue) => issue.field === "id") ? NOTHING_TO_ROTATE : BAD_GRACE;
  }
  return (isMarketplaceError(error) && ROTATE_REFUSALS[error.code]) || null;
}

/** A key just made, for the one answer that shows it. */
interface Shown {
  created: NewKey;
  flash: Flash;
  /** A rotation's old key, and when it stops. */
  replacing?: { id: string; end: Date };
}

/** The replaced key as stored now; past 100 keys it is not in the list, and its end is worked out. */
function replacedBy(keys: readonly ApiKey[], replacing: NonNullable<Shown["replacing"]>, now: Date) {
  const old = keys.find((key) => key.id === replacing.id);
  const until = old ? old.expiresAt : replacing.end;
  return { prefix: old?.prefix ?? null, until: until && until.getTime() > now.getTime() ? until : null };
}

/** `/account/keys`: create (scoped, expiring), rotate and deactivate API keys; behind accountRoutes' signedIn. */
export function keyRoutes(app: Hono<WebEnv>, config: WebConfig): void {
  const m = config.marketplace;

  const keysPage = async (c: Context<WebEnv>, draft: KeyDraft, errors: FieldErrors, shown?: Shown) => {
    const actor = userOf(c);
    const keys = (await m.apiKeys.list(actor, { limit: 100 })).items;
    const now = m.now();
    let created = shown?.created;
    if (created && shown?.replacing)
      created = { ...created, replaced: replacedBy(keys, shown.replacing, now) };
    const view: ApiKeysView = {
      keys,
      now,
      userId: actor.user.id,
      grantable: grantableScopes(isAdmin(actor)),
      draft,
      errors,
      created,
    };
    const flash = shown?.flash;
    const status = shown ? 201 : Object.keys(errors).length > 0 ? 400 : 200;
    // The page that shows a new key says so itself: a flash cookie would wait for the next page.
    const page = (ctx: PageContext) => <ApiKeysPage ctx={flash ? { ...ctx, flash } : ctx} view={view} />;
    return render(c, config, page, status);
  };

  app.get("/account/keys", readLimit(config), (c) => keysPage(c, EMPTY_DRAFT, {}));

  app.post("/account/keys", formGuard(config, "write"), async (c) => {
    const actor = userOf(c);
    const draft = keyDraftOf(c.get("form"));
    const offered = grantableScopes(isAdmin(actor));
    let created: NewKey | undefined;
    return once<FieldErrors>(c, config, actor, {
      route: "create_key",
      work: async (bound) => {
        const asked = createCommand(draft, bound.now());
        if ("errors" in asked) return { refused: asked.errors };
        try {
          const { apiKey, secret } = await bound.apiKeys.create(actor, asked.command);
          created = { name: apiKey.name, secret, scopes: apiKey.scopes, expiresAt: apiKey.expiresAt };
        } catch (error) {
          const problem = createRefusal(error, draft, offered);
          if (problem) return { refused: problem };
          throw error;
        }
        // Kept for a resent form, which is told the key exists but never sees its value.
        return { redirect: "/account/keys", flash: KEY_ALREADY_CREATED };
      },
      refused: (problem) => keysPage(c, draft, problem),
      // Only the answer that made the key carries its value, in its body (no-store), never in a cookie.
      fresh: () => keysPage(c, EMPTY_DRAFT, {}, created && { created, flash: KEY_CREATED }),
    });
  });

  app.post("/account/keys/:id/rotate", formGuard(config, "write"), async (c) => {
    const actor = userOf(c);
    const id = c.req.param("id");
    const graceSeconds = graceOf(c.get("form"));
    let rotated: Shown | undefined;
    return once<Flash>(c, config, actor, {
      route: "rotate_key",
      work: async (bound) => {
        if (graceSeconds === null) return { refused: BAD_GRACE };
        try {
          const command = graceSeconds === undefined ? { id } : { id, graceSeconds };
          const { apiKey, secret } = await bound.apiKeys.rotate(actor, command);
          const graceMs = (graceSeconds ?? DEFAULT_ROTATION_GRACE_SECONDS) * 1000;
          const graceEnd = new Date(apiKey.createdAt.getTime() + graceMs);
          rotated = {
            created: { name: apiKey.name, secret, scopes: apiKey.scopes, expiresAt: apiKey.expiresAt },
            flash: KEY_ROTATED,
            // The replacement keeps the old key's expiry: the old one stops at the sooner of the two.
            replacing: {
              id,
              end: apiKey.expiresAt && apiKey.expiresAt < graceEnd ? apiKey.expiresAt : graceEnd,
            },
          };
        } catch (error) {
          const flash = rotateRefusal(error);
          if (flash) return { refused: flash };
          throw error;
        }
        return { redirect: "/account/keys", flash: KEY_ALREADY_ROTATED };
      },
      refused: async (flash) => {
        setFlash(c, config, flash);
        return c.redirect("/account/keys", 303);
      },
      fresh: () => keysPage(c, EMPTY_DRAFT, {}, rotated),
    });
  });

  app.post("/account/keys/:id/deactivate", formGuard(config, "write"), (c) => {
    const deactivate = () => m.apiKeys.deactivate(userOf(c), { id: c.req.param("id") });
    return redirectAfter(c, config, "/account/keys", deactivate, KEY_DEACTIVATE);
  });
}

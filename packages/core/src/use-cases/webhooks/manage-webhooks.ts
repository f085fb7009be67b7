import type { Deps } from "../../deps.js";
import type { Actor } from "../../domain/actor.js";
import type { Page } from "../../domain/page.js";
import { MAX_WEBHOOKS_PER_USER, type Webhook } from "../../domain/webhook.js";
import { MarketplaceError } from "../../errors.js";
import { type IdInput, idSchema } from "../../schemas/id.js";
import { type PageQueryInput, pageQuerySchema } from "../../schemas/page-query.js";
import {
  type CreateWebhookInput,
  createWebhookSchema,
  type UpdateWebhookInput,
  updateWebhookSchema,
  type WebhookUrlInput,
  webhookUrlSchema,
} from "../../schemas/webhooks.js";
import { decodeCursor, toPage } from "../../support/cursor.js";
import { validate } from "../../support/validate.js";
import { requireUser } from "../access.js";
import { requireProvenAddress } from "../proven-address.js";
import { ownWebhook, requireDeliverableUrl } from "./own-webhook.js";
import { newWebhookSecret } from "./secrets.js";

/** A new webhook and its signing secret, shown this once. */
export interface CreatedWebhook {
  webhook: Webhook;
  secret: string;
}

/**
 * Registers a URL for the caller's events: at most MAX_WEBHOOKS_PER_USER, the URL vetted by the
 * transport (no private, loopback, link-local, multicast or metadata address) before it is stored.
 */
export async function createWebhook(
  deps: Pick<Deps, "repos" | "clock" | "ids" | "random" | "settings" | "webhookTransport">,
  actor: Actor,
  input: CreateWebhookInput,
): Promise<CreatedWebhook> {
  const caller = requireUser(actor);
  requireProvenAddress(deps.settings, caller.user);
  const data = validate(createWebhookSchema, input);
  await requireDeliverableUrl(deps, data.url);
  const now = deps.clock.now();
  const secret = newWebhookSecret(deps);
  const webhook: Webhook = {
    id: deps.ids.newId(now),
    userId: caller.user.id,
    url: data.url,
    types: data.types,
    description: data.description,
    enabled: true,
    disabledReason: null,
    secrets: [{ value: secret, expiresAt: null }],
    createdAt: now,
  };
  if (!(await deps.repos.webhooks.insertWithinLimit(webhook, MAX_WEBHOOKS_PER_USER))) {
    throw new MarketplaceError("webhook_limit_reached");
  }
  return { webhook, secret };
}

/**
 * Whether `url` may receive webhooks, as create and update will decide: the same validation and
 * the transport's vetting (a DNS lookup). A surface that runs a write inside a unit of work (an
 * idempotent request holds the storage while it runs) calls this first, outside it, so the lookup
 * never holds the storage; the transport remembers the verdict briefly for the write's own check.
 */
export async function checkWebhookUrl(
  deps: Pick<Deps, "webhookTransport">,
  actor: Actor,
  input: WebhookUrlInput,
): Promise<void> {
  requireUser(actor);
  const { url } = validate(webhookUrlSchema, input);
  await requireDeliverableUrl(deps, url);
}

/** The caller's webhooks, newest first. */
export async function listWebhooks(
  deps: Pick<Deps, "repos">,
  actor: Actor,
  query: PageQueryInput,
): Promise<Page<Webhook>> {
  const { user } = requireUser(actor);
  const q = validate(pageQuerySchema, query);
  const rows = await deps.repos.webhooks.listByUser(user.id, {
    limit: q.limit + 1,
    before: decodeCursor(q.cursor),
  });
  return toPage(rows, q.limit);
}

/** One of the caller's webhooks. */
export async function getWebhook(deps: Pick<Deps, "repos">, actor: Actor, input: IdInput): Promise<Webhook> {
  const caller = requireUser(actor);
  return ownWebhook(deps, caller, validate(idSchema, input).id);
}

/**
 * Changes url, types, description or enabled. A new URL is vetted as at creation; turning a webhook
 * on clears why the relay turned it off; turning it off is its owner's choice, with no reason.
 */
export async function updateWebhook(
  deps: Pick<Deps, "repos" | "webhookTransport">,
  actor: Actor,
  input: IdInput & UpdateWebhookInput,
): Promise<Webhook> {
  const caller = requireUser(actor);
  const { id } = validate(idSchema, input);
  const data = validate(updateWebhookSchema, input);
  const webhook = await ownWebhook(deps, caller, id);
  if (data.url !== undefined && data.url !== webhook.url) await requireDeliverableUrl(deps, data.url);
  const updated: Webhook = {
    ...webhook,
    ...(data.url === undefined ? {} : { url: data.url }),
    ...(data.types === undefined ? {} : { types: data.types }),
    ...(data.description === undefined ? {} : { description: data.description }),
    ...(data.enabled === undefined ? {} : { enabled: data.enabled, disabledReason: null }),
  };
  if (!(await deps.repos.webhooks.update(updated))) throw new MarketplaceError("webhook_not_found");
  return updated;
}

/** Deletes one of the caller's webhooks and its delivery log. */
export async function deleteWebhook(deps: Pick<Deps, "repos">, actor: Actor, input: IdInput): Promise<void> {
  const caller = requireUser(actor);
  const webhook = await ownWebhook(deps, caller, validate(idSchema, input).id);
  if (!(await deps.repos.webhooks.delete(webhook.id))) throw new MarketplaceError("webhook_not_found");
}

import type { Deps } from "../../deps.js";
import { RESET_TOKEN_TTL_MS } from "../../domain/limits.js";
import { MAIL_RETRY, type MailJob, type MailKind } from "../../domain/mail-job.js";
import { messagePreview, parseConversationKey } from "../../domain/notification.js";
import { type User, VERIFICATION_TOKEN_TTL_MS } from "../../domain/user.js";
import { type Mail, MailDeliveryError } from "../../ports/mailer.js";
import type { Repositories } from "../../ports/repositories.js";
import { sha256Hex, toBase64Url } from "../../support/crypto.js";
import { unsubscribeUrl } from "../notifications/unsubscribe-links.js";
import type { Composer, MailDeps } from "./composer.js";
import { savedSearchMatched } from "./saved-search-mail.js";

/**
 * A mail that carries a single-use link: its token is minted now and only its digest kept, in the
 * kind's own store, so a leaked queue reveals no link.
 */
function linkMail(
  store: keyof Pick<Repositories, "resetTokens" | "verificationTokens">,
  ttlMs: number,
  path: string,
  mail: (user: User, url: string) => Mail,
): Composer {
  return async (deps, user, now) => {
    const tokens = deps.repos[store];
    const token = toBase64Url(deps.random.bytes(32));
    const tokenHash = sha256Hex(token);
    await tokens.insert({
      tokenHash,
      userId: user.id,
      expiresAt: new Date(now.getTime() + ttlMs),
      createdAt: now,
    });
    return {
      mail: mail(user, `${deps.settings.publicUrl}${path}?token=${token}`),
      undo: () => tokens.delete(tokenHash),
    };
  };
}

/**
 * The webhooks the relay turned off, read when the mail goes: one turned back on meanwhile is not
 * mentioned, and none left means nothing to send. Only to a proven address: an unproven one may
 * not be the owner's.
 */
const webhookDisabled: Composer = async (deps, user) => {
  if (user.emailVerifiedAt === null) return { nothing: "the address was never proven" };
  const off = (await deps.repos.webhooks.listByUser(user.id, { limit: 100 })).filter(
    (webhook) => !webhook.enabled && webhook.disabledReason !== null,
  );
  if (off.length === 0) return { nothing: "no webhook is turned off any more" };
  return {
    mail: {
      kind: "webhook_disabled",
      to: user.email,
      displayName: user.displayName,
      webhooks: off.map((webhook) => ({ url: webhook.url, reason: webhook.disabledReason ?? "" })),
      manageUrl: `${deps.settings.publicUrl}/account/webhooks`,
    },
    undo: async () => undefined,
  };
};

/**
 * The newest message of the conversation, read when the mail goes: messages that came during the
 * 15 minutes are told by the one mail. Settings and the proven address are read again, so a user
 * who turned message mail off since the job was queued gets nothing.
 */
const messageReceived: Composer = async (deps, user, _now, job) => {
  if (user.emailVerifiedAt === null) return { nothing: "the address was never proven" };
  if (!deps.urlSigner) return { nothing: "no URL signer: the mail could not carry its unsubscribe link" };
  if ((await deps.repos.notifications.get(user.id)).messageMail !== "instant") {
    return { nothing: "message mail is turned off" };
  }
  const conversation = job.ref === null ? null : parseConversationKey(job.ref);
  if (!conversation) return { nothing: "the job names no conversation" };
  const message = await deps.repos.messages.latestBetween(
    user.id,
    conversation.senderId,
    conversation.listingId,
  );
  if (!message) return { nothing: "the conversation has no message" };
  const [listing, sender] = await Promise.all([
    deps.repos.listings.findById(conversation.listingId),
    deps.repos.users.findById(conversation.senderId),
  ]);
  return {
    mail: {
      kind: "message_received",
      to: user.email,
      displayName: user.displayName,
      senderName: sender?.displayName ?? "A former member",
      listingTitle: listing?.title ?? "a listing that was deleted",
      preview: messagePreview(message.content),
      inboxUrl: `${deps.settings.publicUrl}/inbox`,
      unsubscribeUrl: unsubscribeUrl(deps, deps.urlSigner, user.id, "message_mail"),
    },
    undo: async () => undefined,
  };
};

const COMPOSERS: Record<MailKind, Composer> = {
  password_reset: linkMail("resetTokens", RESET_TOKEN_TTL_MS, "/reset-password", (user, url) => ({
    kind: "password_reset",
    to: user.email,
    displayName: user.displayName,
    resetUrl: url,
    expiresInMinutes: RESET_TOKEN_TTL_MS / 60_000,
  })),
  email_verification: linkMail(
    "verificationTokens",
    VERIFICATION_TOKEN_TTL_MS,
    "/verify-email",
    (user, url) => ({
      kind: "email_verification",
      to: user.email,
      displayName: user.displayName,
      verifyUrl: url,
      expiresInHours: VERIFICATION_TOKEN_TTL_MS / 3_600_000,
    }),
  ),
  webhook_disabled: webhookDisabled,
  message_received: messageReceived,
  saved_search_matched: savedSearchMatched,
};

/** Outcome of one mail dispatch round. */
export interface DispatchReport {
  sent: number;
  retried: number;
  failed: number;
}

/** How many due jobs one round claims (default 20). */
export interface DispatchOptions {
  batchSize?: number;
}

/**
 * Sends the queued mail that is due. Each job is claimed (leased) first, so
 * several processes never send one job twice. The link's token (reset or
 * verification) is minted at send time and only its digest stored, each kind
 * in a store of its own; a failed attempt removes its token,
 * backs off exponentially with jitter, and gives up after MAIL_RETRY.maxAttempts.
 */
export async function dispatchMail(deps: MailDeps, options: DispatchOptions = {}): Promise<DispatchReport> {
  const report: DispatchReport = { sent: 0, retried: 0, failed: 0 };
  const jobs = await deps.repos.mailQueue.claimDue(
    deps.clock.now(),
    options.batchSize ?? 20,
    MAIL_RETRY.leaseMs,
  );
  for (const job of jobs) report[await deliver(deps, job)]++;
  return report;
}

async function deliver(deps: MailDeps, job: MailJob): Promise<keyof DispatchReport> {
  const user = await deps.repos.users.findById(job.userId);
  if (!user) {
    await deps.repos.mailQueue.markFailed(job.id, "user no longer exists");
    return "failed";
  }
  const composed = await COMPOSERS[job.kind](deps, user, deps.clock.now(), job);
  if ("nothing" in composed) {
    await deps.repos.mailQueue.markFailed(job.id, composed.nothing);
    return "failed";
  }
  try {
    await deps.mailer.send(composed.mail);
  } catch (error) {
    await composed.undo();
    const reason = describe(error);
    const permanent = error instanceof MailDeliveryError && error.permanent;
    if (permanent || job.attempts >= MAIL_RETRY.maxAttempts) {
      await deps.repos.mailQueue.markFailed(job.id, reason);
      return "failed";
    }
    await deps.repos.mailQueue.reschedule(
      job.id,
      new Date(deps.clock.now().getTime() + backoff(deps, job.attempts)),
      reason,
    );
    return "retried";
  }
  await deps.repos.mailQueue.markSent(job.id, deps.clock.now());
  return "sent";
}

/** Exponential backoff with "equal jitter": half fixed, half random. */
export function backoff(deps: Pick<Deps, "random">, attempts: number): number {
  const ceiling = Math.min(MAIL_RETRY.maxDelayMs, MAIL_RETRY.baseDelayMs * 2 ** Math.max(0, attempts - 1));
  const jitter = (deps.random.bytes(1)[0]! / 255) * (ceiling / 2);
  return Math.round(ceiling / 2 + jitter);
}

function describe(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.slice(0, 500);
}

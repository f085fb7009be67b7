import type { Deps } from "./deps.js";
import { type Actor, hasScope } from "./domain/actor.js";
import type { Scope } from "./domain/scopes.js";
import { MarketplaceError } from "./errors.js";
import { deletePost, listPosts } from "./use-cases/admin/admin-posts.js";
import { deleteUser, listUsers } from "./use-cases/admin/admin-users.js";
import { ensureAdmin } from "./use-cases/admin/ensure-admin.js";
import { createApiKey } from "./use-cases/api-keys/create-api-key.js";
import { deactivateApiKey } from "./use-cases/api-keys/deactivate-api-key.js";
import { listApiKeys } from "./use-cases/api-keys/list-api-keys.js";
import { rotateApiKey } from "./use-cases/api-keys/rotate-api-key.js";
import { authenticate } from "./use-cases/auth/authenticate.js";
import { changePassword } from "./use-cases/auth/change-password.js";
import { dummyHash } from "./use-cases/auth/dummy-hash.js";
import { logIn } from "./use-cases/auth/log-in.js";
import { me } from "./use-cases/auth/me.js";
import { requestPasswordReset } from "./use-cases/auth/request-password-reset.js";
import { signUp } from "./use-cases/auth/sign-up.js";
import { updateDisplayName } from "./use-cases/auth/update-display-name.js";
import { checkResetToken, updatePassword } from "./use-cases/auth/update-password.js";
import { checkVerificationToken, verifyEmail } from "./use-cases/auth/verify-email.js";
import { parseDocument } from "./use-cases/documents/parse-document.js";
import { listEvents } from "./use-cases/events/list-events.js";
import {
  type IdempotentOutcome,
  type IdempotentRequest,
  type IdempotentWork,
  runIdempotent,
} from "./use-cases/idempotency/run-idempotent.js";
import { createListing } from "./use-cases/listings/create-listing.js";
import { deleteListing } from "./use-cases/listings/delete-listing.js";
import { getListing, recordView } from "./use-cases/listings/get-listing.js";
import { searchListings } from "./use-cases/listings/search-listings.js";
import { updateListing } from "./use-cases/listings/update-listing.js";
import { dispatchDue } from "./use-cases/mail/dispatch-due.js";
import { sweepExpired } from "./use-cases/maintenance/sweep-expired.js";
import { listMessages } from "./use-cases/messages/list-messages.js";
import { sendMessage } from "./use-cases/messages/send-message.js";
import {
  checkUnsubscribe,
  getNotificationSettings,
  unsubscribe,
  updateNotificationSettings,
} from "./use-cases/notifications/notification-settings.js";
import { approveAuthorization, checkAuthorization } from "./use-cases/oauth/authorize.js";
import { registerClient, resolveClient } from "./use-cases/oauth/clients.js";
import { listConnectedApps, revokeConnectedApp, revokeToken } from "./use-cases/oauth/grants.js";
import { exchangeCode, refreshGrant } from "./use-cases/oauth/tokens.js";
import { displayNames } from "./use-cases/profiles/display-names.js";
import { listProfiles } from "./use-cases/profiles/list-profiles.js";
import { checkAdmin, getListingLimit, postListingLimit } from "./use-cases/profiles/listing-limit.js";
import { syncProfile } from "./use-cases/profiles/sync-profile.js";
import {
  createSavedSearch,
  deleteSavedSearch,
  listSavedSearches,
} from "./use-cases/saved-searches/manage-saved-searches.js";
import { matchSavedSearches } from "./use-cases/saved-searches/match-saved-searches.js";
import { closeSession, openSession, resumeSession } from "./use-cases/sessions/sessions.js";
import {
  checkWebhookUrl,
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhooks,
  updateWebhook,
} from "./use-cases/webhooks/manage-webhooks.js";
import { relayWebhooks } from "./use-cases/webhooks/relay-webhooks.js";
import {
  listDeliveries,
  replayWebhook,
  rotateWebhookSecret,
  testWebhook,
} from "./use-cases/webhooks/webhook-actions.js";

/** A use case with its dependencies applied: the same parameters after `deps`. */
function bind<D, A extends unknown[], R>(deps: D, useCase: (deps: D, ...args: A) => R): (...args: A) => R {
  return (...args) => useCase(deps, ...args);
}

/**
 * Binds a use case that a credential may run only with `scope` (domain/scopes.ts): a signed-in
 * caller whose credential lacks it is refused with `insufficient_scope` before the use case reads
 * anything; an anonymous one goes on, to be told what the use case tells anonymous callers.
 */
function scoped<D, I extends unknown[], R>(
  scope: Scope,
  deps: D,
  useCase: (deps: D, actor: Actor, ...input: I) => Promise<R>,
): (actor: Actor, ...input: I) => Promise<R> {
  return async (actor, ...input) => {
    if (actor.kind === "user" && !hasScope(actor, scope)) {
      throw new MarketplaceError("insufficient_scope", `This credential lacks the scope ${scope}`);
    }
    return useCase(deps, actor, ...input);
  };
}

/**
 * Binds every use case to `deps`: the object apps/server and other Node
 * services embed. Each member is the use case of the same name in
 * `use-cases/`, typed by it: commands are the domain's camelCase objects,
 * validated by the use case itself, so a plain-JS caller gets the same
 * `invalid_input` as a typed one; failures throw MarketplaceError.
 */
export function createMarketplace(deps: Deps): Marketplace {
  // Made up front so the first login for an unknown address costs no more than later ones.
  void dummyHash(deps.hasher).catch(() => undefined);
  return withIdempotency(deps);
}

function withIdempotency(deps: Deps): Marketplace {
  return {
    ...useCases(deps),
    idempotency: {
      run: (request, work) =>
        runIdempotent(deps, (repos) => withIdempotency({ ...deps, repos }), request, work),
    },
  };
}

function useCases(deps: Deps) {
  return {
    auth: {
      signUp: bind(deps, signUp),
      logIn: bind(deps, logIn),
      /** Anonymous when no credential is given; throws `unauthenticated` for an invalid one. */
      authenticate: bind(deps, authenticate),
      me: bind(deps, me),
      requestPasswordReset: bind(deps, requestPasswordReset),
      updatePassword: bind(deps, updatePassword),
      /** A signed-in user's new password; ends every JWT and browser session issued before. */
      changePassword: scoped("account:write", deps, changePassword),
      /** Whether a reset token is usable now, without consuming it (the reset page). */
      checkResetToken: bind(deps, checkResetToken),
      verifyEmail: bind(deps, verifyEmail),
      /** Whether a verification token is usable now, without consuming it (the verification page). */
      checkVerificationToken: bind(deps, checkVerificationToken),
    },
    /** Server-side browser sessions (the web pages' cookie). */
    sessions: {
      open: bind(deps, openSession),
      resume: bind(deps, resumeSession),
      close: bind(deps, closeSession),
    },
    users: {
      updateDisplayName: scoped("account:write", deps, updateDisplayName),
    },
    listings: {
      create: scoped("listings:write", deps, createListing),
      search: bind(deps, searchListings),
      get: bind(deps, getListing),
      recordView: bind(deps, recordView),
      update: scoped("listings:write", deps, updateListing),
      delete: scoped("listings:write", deps, deleteListing),
    },
    apiKeys: {
      create: scoped("account:write", deps, createApiKey),
      list: scoped("account:write", deps, listApiKeys),
      deactivate: scoped("account:write", deps, deactivateApiKey),
      /** A new key of the same name, scopes and expiry; the old one works for a grace period. */
      rotate: scoped("account:write", deps, rotateApiKey),
    },
    messages: {
      send: scoped("messages:write", deps, sendMessage),
      list: scoped("messages:read", deps, listMessages),
    },
    profiles: {
      list: bind(deps, listProfiles),
      /** Public display names by user id (up to 100), for pages naming authors and correspondents. */
      displayNames: bind(deps, displayNames),
      sync: scoped("account:write", deps, syncProfile),
      isAdmin: bind(deps, checkAdmin),
      getLimit: bind(deps, getListingLimit),
      /** The compatibility POST: same answer as getLimit, moves nothing. */
      postLimit: bind(deps, postListingLimit),
    },
    admin: {
      listPosts: bind(deps, listPosts),
      deletePost: bind(deps, deletePost),
      listUsers: bind(deps, listUsers),
      deleteUser: bind(deps, deleteUser),
      /**
       * Makes the configured admin exist (idempotent). `promoted` means an
       * account that was not an admin held the address: it now is one, with
       * the given password, its sessions and API keys ended. The caller should say so.
       */
      ensureAdmin: bind(deps, ensureAdmin),
    },
    /** The event log: what happened to the caller's listings, messages and saved searches. */
    events: {
      list: scoped("events:read", deps, listEvents),
    },
    /** Which notification mails the caller gets, and the one-click unsubscribe of mailed links. */
    notifications: {
      get: bind(deps, getNotificationSettings),
      update: scoped("account:write", deps, updateNotificationSettings),
      /** Whether an unsubscribe link is valid and what it turns off, changing nothing (the page). */
      checkUnsubscribe: bind(deps, checkUnsubscribe),
      /** Turns off the kind of mail a link names, with no login (RFC 8058 one-click). */
      unsubscribe: bind(deps, unsubscribe),
    },
    /** Signed POSTs of the caller's events to URLs they choose (Standard Webhooks 1.0.0). */
    webhooks: {
      create: scoped("webhooks:manage", deps, createWebhook),
      list: scoped("webhooks:manage", deps, listWebhooks),
      get: scoped("webhooks:manage", deps, getWebhook),
      update: scoped("webhooks:manage", deps, updateWebhook),
      delete: scoped("webhooks:manage", deps, deleteWebhook),
      /** A new secret; the previous one keeps signing beside it for 24 hours. */
      rotateSecret: scoped("webhooks:manage", deps, rotateWebhookSecret),
      /** Writes a `webhook.test` event that the relay delivers to this webhook alone. */
      test: scoped("webhooks:manage", deps, testWebhook),
      deliveries: scoped("webhooks:manage", deps, listDeliveries),
      replay: scoped("webhooks:manage", deps, replayWebhook),
      /** The URL check of create and update alone, to run before a unit of work (see the use case). */
      checkUrl: scoped("webhooks:manage", deps, checkWebhookUrl),
      /** One relay round: new events become deliveries, due deliveries are sent; call it on a timer. */
      relay: bind(deps, relayWebhooks),
    },
    /**
     * OAuth 2.1 with the marketplace as its own authorization server (settings.oauth): failures of
     * the protocol throw OAuthError with RFC 6749's codes; the account page's calls MarketplaceError.
     */
    oauth: {
      registerClient: bind(deps, registerClient),
      resolveClient: bind(deps, resolveClient),
      /** Checks an authorization request; the consent page shows what it answers. */
      checkAuthorization: bind(deps, checkAuthorization),
      /** The signed-in user approves (a narrowing of) the scopes: answers the code. */
      approve: bind(deps, approveAuthorization),
      exchangeCode: bind(deps, exchangeCode),
      refresh: bind(deps, refreshGrant),
      revokeToken: bind(deps, revokeToken),
      /** The account page: the applications connected, and disconnecting one. */
      listConnected: bind(deps, listConnectedApps),
      disconnect: bind(deps, revokeConnectedApp),
    },
    /** Searches the caller keeps, to be told (events, mail) of new listings that match them. */
    savedSearches: {
      create: scoped("saved_searches:manage", deps, createSavedSearch),
      list: scoped("saved_searches:manage", deps, listSavedSearches),
      delete: scoped("saved_searches:manage", deps, deleteSavedSearch),
      /** One matching round: new and reactivated listings against every saved search; call it on a timer. */
      match: bind(deps, matchSavedSearches),
    },
    documents: {
      parse: scoped("documents:parse", deps, parseDocument),
    },
    mail: {
      /** Sends due queued mail once; call it on a timer (see @psm/adapter-mail's startMailDispatcher). */
      dispatchDue: bind(deps, dispatchDue),
    },
    maintenance: {
      /** Removes expired idempotency keys and sessions; call it on a timer. */
      sweepExpired: bind(deps, sweepExpired),
    },
    settings: deps.settings,
    /** The marketplace's clock, for adapters that present time-dependent state (a listing's effective status). */
    now: (): Date => deps.clock.now(),
  };
}

/** Every use case bound to its dependencies (what createMarketplace returns). */
export interface Marketplace extends ReturnType<typeof useCases> {
  /** Runs a write at most once per key (the Idempotency-Key of decisions.md). */
  idempotency: {
    /**
     * `work` runs in one unit of work with the key's result, on a marketplace
     * bound to it; its result says whether the writes commit and whether the
     * result is kept for replays; see runIdempotent. Throws `invalid_idempotency_key`,
     * `idempotency_in_flight` (with retryAfter) or `idempotency_key_reused`.
     */
    run(
      request: IdempotentRequest,
      work: (marketplace: Marketplace) => Promise<IdempotentWork>,
    ): Promise<IdempotentOutcome>;
  };
}

import type { Deps } from "./deps.js";
import type { Actor } from "./domain/actor.js";
import type { ApiKey } from "./domain/api-key.js";
import type { Listing } from "./domain/listing.js";
import type { Message, MessageDirection } from "./domain/message.js";
import type { Page } from "./domain/page.js";
import type { Profile, UserView } from "./domain/user.js";
import type { DocumentInput, ParsedDocument } from "./ports/document-parser.js";
import { bindAdmin } from "./use-cases/admin/index.js";
import { bindApiKeys } from "./use-cases/api-keys/index.js";
import { bindAuth, bindUsers } from "./use-cases/auth/index.js";
import { bindDocuments } from "./use-cases/documents/index.js";
import { bindListings } from "./use-cases/listings/index.js";
import { bindMail } from "./use-cases/mail/index.js";
import { bindMessages } from "./use-cases/messages/index.js";
import type { CapabilitiesDocument } from "./use-cases/meta/capabilities.js";
import { buildCapabilities } from "./use-cases/meta/capabilities.js";
import { bindProfiles } from "./use-cases/profiles/index.js";

/** Credentials as presented by a caller; at most one is normally set. */
export interface Credentials {
  apiKey?: string | undefined;
  bearer?: string | undefined;
}

/** A listing's slot report (GET /api/profiles/limit). */
export interface ListingLimit {
  canPost: boolean;
  activeListingsCount: number;
  maxSlots: number;
  accountType: string;
}

/** A newly created key: the stored record and its value, shown once. */
export interface CreatedApiKey {
  apiKey: ApiKey;
  secret: string;
}

/** One page of messages with the direction asked for. */
export interface MessagePage extends Page<Message> {
  type: MessageDirection;
}

/** What ensureAdmin found and did. */
export interface EnsuredAdmin {
  user: UserView;
  outcome: "created" | "promoted" | "unchanged";
}

/** Outcome of one mail dispatch round. */
export interface DispatchReport {
  sent: number;
  retried: number;
  failed: number;
}

/**
 * Every use case, bound to its dependencies. Inputs are the wire-shaped
 * objects the valibot schemas describe (`unknown` is validated inside);
 * outputs are domain objects. Failures throw MarketplaceError.
 */
export interface Marketplace {
  auth: {
    signUp(input: unknown): Promise<UserView>;
    logIn(input: unknown): Promise<{ user: UserView; token: string }>;
    /** Anonymous when no credential is given; throws `unauthenticated` for an invalid one. */
    authenticate(credentials: Credentials): Promise<Actor>;
    me(actor: Actor): Promise<UserView | null>;
    requestPasswordReset(input: unknown): Promise<void>;
    updatePassword(input: unknown): Promise<void>;
    /** Whether a reset token is currently usable (the reset page), without consuming it. */
    checkResetToken(token: string): Promise<boolean>;
    /** Proves the address with the token of the link mailed at sign-up; deactivates nothing. */
    verifyEmail(input: unknown): Promise<UserView>;
    /** Whether a verification token is currently usable (the verification page), without consuming it. */
    checkVerificationToken(token: string): Promise<boolean>;
  };
  users: {
    updateDisplayName(actor: Actor, input: unknown): Promise<UserView>;
  };
  listings: {
    create(actor: Actor, input: unknown): Promise<Listing>;
    search(actor: Actor, query: unknown): Promise<Page<Listing>>;
    get(id: string): Promise<Listing>;
    recordView(id: string): Promise<void>;
    update(actor: Actor, id: string, input: unknown): Promise<Listing>;
    delete(actor: Actor, id: string): Promise<void>;
  };
  apiKeys: {
    create(actor: Actor, input: unknown): Promise<CreatedApiKey>;
    list(actor: Actor, query: unknown): Promise<Page<ApiKey>>;
    deactivate(actor: Actor, id: string): Promise<void>;
  };
  messages: {
    send(actor: Actor, input: unknown): Promise<Message>;
    list(actor: Actor, query: unknown): Promise<MessagePage>;
  };
  profiles: {
    list(actor: Actor, query: unknown): Promise<Page<Profile>>;
    sync(actor: Actor, input: unknown): Promise<Profile>;
    isAdmin(query: unknown): Promise<boolean>;
    getLimit(query: unknown): Promise<ListingLimit>;
    /** The compatibility POST: same answer as the GET, moves nothing. */
    postLimit(actor: Actor, input: unknown): Promise<ListingLimit>;
  };
  admin: {
    listPosts(actor: Actor, query: unknown): Promise<Page<Listing>>;
    deletePost(actor: Actor, id: string): Promise<void>;
    listUsers(actor: Actor, query: unknown): Promise<Page<UserView>>;
    deleteUser(actor: Actor, id: string): Promise<void>;
    /**
     * Makes the configured admin exist (idempotent). `promoted` means an
     * account that was not an admin held the address: it now is one, with
     * the given password, its sessions and API keys ended. The caller should say so.
     */
    ensureAdmin(input: { email: string; password: string }): Promise<EnsuredAdmin>;
  };
  documents: {
    parse(actor: Actor, input: DocumentInput): Promise<ParsedDocument>;
  };
  mail: {
    /** Sends due queued mail once; the server calls it on a timer. */
    dispatchDue(options?: { batchSize?: number }): Promise<DispatchReport>;
  };
  meta: {
    capabilities(): CapabilitiesDocument;
  };
  settings: Deps["settings"];
  /** The marketplace's clock, for adapters that present time-dependent state (a listing's effective status). */
  now(): Date;
}

/** Binds every use case to `deps`: the object apps/server and other Node services embed. */
export function createMarketplace(deps: Deps): Marketplace {
  return {
    auth: bindAuth(deps),
    users: bindUsers(deps),
    listings: bindListings(deps),
    apiKeys: bindApiKeys(deps),
    messages: bindMessages(deps),
    profiles: bindProfiles(deps),
    admin: bindAdmin(deps),
    documents: bindDocuments(deps),
    mail: bindMail(deps),
    meta: { capabilities: () => buildCapabilities(deps.settings) },
    settings: deps.settings,
    now: () => deps.clock.now(),
  };
}

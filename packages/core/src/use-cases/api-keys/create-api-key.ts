import type { Deps } from "../../deps.js";
import { type Actor, isAdmin, scopesOf, type UserActor } from "../../domain/actor.js";
import { API_KEY_PREFIX, type ApiKey, KEY_PREFIX_LENGTH, MAX_KEY_LIFETIME_MS } from "../../domain/api-key.js";
import { SCOPES, type Scope } from "../../domain/scopes.js";
import { invalidField, MarketplaceError } from "../../errors.js";
import { type CreateApiKeyInput, createApiKeySchema } from "../../schemas/api-key.js";
import { sha256Hex, toHex } from "../../support/crypto.js";
import { validate } from "../../support/validate.js";
import { requireUser } from "../access.js";
import { requireProvenAddress } from "../proven-address.js";

/** A newly created key: the stored record and its value, shown once. */
export interface CreatedApiKey {
  apiKey: ApiKey;
  secret: string;
}

/**
 * Creates a key for the caller: `psm_` + 64 hex (32 random bytes); only its digest and its first
 * 12 characters are stored. A key grants no more than the credential that makes it: its scopes
 * must be among the caller's (`admin` only for an admin acting as one), and a caller that is
 * itself an expiring key cannot make one that outlives it. With REQUIRE_VERIFIED_EMAIL the
 * address must be proven.
 */
export async function createApiKey(
  deps: Pick<Deps, "repos" | "clock" | "ids" | "random" | "settings">,
  actor: Actor,
  input: CreateApiKeyInput,
): Promise<CreatedApiKey> {
  const caller = requireUser(actor);
  requireProvenAddress(deps.settings, caller.user);
  const data = validate(createApiKeySchema, input);
  const now = deps.clock.now();
  const scopes = data.scopes === undefined ? inheritedScopes(caller) : grantable(caller, data.scopes);
  const expiresAt = expiryFor(caller, data.expiresAt, now);
  return insertKey(deps, caller, { name: data.name, scopes, expiresAt }, now);
}

/** A key made without scopes has the caller's: none (all) for an unrestricted credential. */
function inheritedScopes(caller: UserActor): readonly Scope[] | null {
  return caller.scopes === undefined ? null : [...caller.scopes];
}

/** The requested scopes, each one the caller's credential holds, in SCOPES order without repeats. */
export function grantable(caller: UserActor, requested: readonly Scope[]): Scope[] {
  const held = new Set(scopesOf(caller));
  if (!isAdmin(caller)) held.delete("admin");
  const missing = requested.filter((scope) => !held.has(scope));
  if (missing.length > 0) {
    throw new MarketplaceError(
      "insufficient_scope",
      `A key cannot be given scopes its maker lacks: ${[...new Set(missing)].join(", ")}`,
    );
  }
  return SCOPES.filter((scope) => requested.includes(scope));
}

function expiryFor(caller: UserActor, requested: Date | undefined, now: Date): Date | null {
  if (requested === undefined) return caller.expiresAt ?? null;
  if (requested.getTime() <= now.getTime()) throw invalidField("expiresAt", "must be in the future");
  if (requested.getTime() > now.getTime() + MAX_KEY_LIFETIME_MS) {
    throw invalidField("expiresAt", "must be at most 365 days ahead");
  }
  if (caller.expiresAt !== undefined && requested.getTime() > caller.expiresAt.getTime()) {
    throw invalidField("expiresAt", "must not be later than the expiry of the key making it");
  }
  return requested;
}

/** What a new key is: its name, scopes and expiry. */
export interface KeyTerms {
  name: string;
  scopes: readonly Scope[] | null;
  expiresAt: Date | null;
}

/** A fresh secret and the record that stores its digest. */
export function newKey(
  deps: Pick<Deps, "ids" | "random">,
  userId: string,
  terms: KeyTerms,
  now: Date,
): CreatedApiKey {
  const secret = `${API_KEY_PREFIX}${toHex(deps.random.bytes(32))}`;
  const apiKey: ApiKey = {
    id: deps.ids.newId(now),
    userId,
    name: terms.name,
    keyHash: sha256Hex(secret),
    prefix: secret.slice(0, KEY_PREFIX_LENGTH),
    scopes: terms.scopes,
    expiresAt: terms.expiresAt,
    isActive: true,
    lastUsed: null,
    createdAt: now,
  };
  return { apiKey, secret };
}

async function insertKey(
  deps: Pick<Deps, "repos" | "ids" | "random">,
  caller: UserActor,
  terms: KeyTerms,
  now: Date,
): Promise<CreatedApiKey> {
  const created = newKey(deps, caller.user.id, terms, now);
  await deps.repos.apiKeys.insert(created.apiKey);
  await endIfCredentialsEnded(deps, caller, created.apiKey.id);
  return created;
}

/**
 * A password reset (or the admin bootstrap) may have ended the caller's credentials while a key
 * was made. It bumps the token version before it ends the keys, so reading the version after the
 * insert closes the race: either the key was stored in time to be ended with the others, or it is
 * ended here.
 */
export async function endIfCredentialsEnded(
  deps: Pick<Deps, "repos">,
  caller: UserActor,
  keyId: string,
): Promise<void> {
  const current = await deps.repos.users.findById(caller.user.id);
  if (current?.tokenVersion !== caller.user.tokenVersion) {
    await deps.repos.apiKeys.deactivate(keyId);
    throw new MarketplaceError("unauthenticated", "Your credentials were ended while the key was made");
  }
}

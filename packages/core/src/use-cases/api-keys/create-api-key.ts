import type { Deps } from "../../deps.js";
import { type Actor, isAdmin, scopesOf, type UserActor } from "../../domain/actor.js";
import {
  API_KEY_PREFIX,
  type ApiKey,
  KEY_PREFIX_LENGTH,
  keyRefusal,
  MAX_KEY_LIFETIME_MS,
} from "../../domain/api-key.js";
import { SCOPES, type Scope } from "../../domain/scopes.js";
import { invalidField, MarketplaceError } from "../../errors.js";
import type { Repositories } from "../../ports/repositories.js";
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
  return deps.repos.unitOfWork.run(async (repos) => {
    await requireLiveCredential(repos, caller, now);
    await repos.apiKeys.insert(created.apiKey);
    return created;
  });
}

/**
 * Refuses a caller whose credential was ended since it was authenticated: a
 * password reset or the admin bootstrap moved the token version, or ended the
 * key it presented. Run in the unit of work that stores the new key: holding
 * the user's row orders it against the reclaim (reclaimAccount), which holds
 * the same row, so a key is never stored by a credential a reclaim ended.
 */
export async function requireLiveCredential(
  repos: Repositories,
  caller: UserActor,
  now: Date,
): Promise<void> {
  const current = await repos.users.holdById(caller.user.id);
  const key = caller.keyId === undefined ? null : await repos.apiKeys.findById(caller.keyId);
  const live =
    current?.tokenVersion === caller.user.tokenVersion &&
    (caller.keyId === undefined || (key !== null && keyRefusal(key, now) === null));
  if (!live)
    throw new MarketplaceError("unauthenticated", "Your credentials were ended while the key was made");
}

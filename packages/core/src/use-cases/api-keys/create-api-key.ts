import type { Deps } from "../../deps.js";
import type { Actor } from "../../domain/actor.js";
import { API_KEY_PREFIX, type ApiKey } from "../../domain/api-key.js";
import { MarketplaceError } from "../../errors.js";
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
 * Creates a key for the caller: `psm_` + 64 hex (32 random bytes); only its
 * digest is stored. With REQUIRE_VERIFIED_EMAIL the address must be proven.
 */
export async function createApiKey(
  deps: Pick<Deps, "repos" | "clock" | "ids" | "random" | "settings">,
  actor: Actor,
  input: CreateApiKeyInput,
): Promise<CreatedApiKey> {
  const { user } = requireUser(actor);
  requireProvenAddress(deps.settings, user);
  const data = validate(createApiKeySchema, input);
  const secret = `${API_KEY_PREFIX}${toHex(deps.random.bytes(32))}`;
  const now = deps.clock.now();
  const apiKey: ApiKey = {
    id: deps.ids.newId(now),
    userId: user.id,
    name: data.name,
    keyHash: sha256Hex(secret),
    isActive: true,
    lastUsed: null,
    createdAt: now,
  };
  await deps.repos.apiKeys.insert(apiKey);
  // A password reset (or the admin bootstrap) may have ended the caller's
  // credentials while this ran. It bumps the token version before it ends the
  // keys, so reading the version after the insert closes the race: either the
  // key was stored in time to be ended with the others, or it is ended here.
  const current = await deps.repos.users.findById(user.id);
  if (current?.tokenVersion !== user.tokenVersion) {
    await deps.repos.apiKeys.deactivate(apiKey.id);
    throw new MarketplaceError("unauthenticated", "Your credentials were ended while the key was made");
  }
  return { apiKey, secret };
}

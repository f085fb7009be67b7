import type { Deps } from "../../deps.js";
import type { Actor } from "../../domain/actor.js";
import { API_KEY_PREFIX, type ApiKey } from "../../domain/api-key.js";
import type { CreatedApiKey } from "../../marketplace.js";
import { createApiKeySchema } from "../../schemas/api-key.js";
import { sha256Hex, toHex } from "../../support/crypto.js";
import { validate } from "../../support/validate.js";
import { requireUser } from "../access.js";

/** Creates a key for the caller: `psm_` + 64 hex (32 random bytes); only its digest is stored. */
export async function createApiKey(
  deps: Pick<Deps, "repos" | "clock" | "ids" | "random">,
  actor: Actor,
  input: unknown,
): Promise<CreatedApiKey> {
  const { user } = requireUser(actor);
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
  return { apiKey, secret };
}

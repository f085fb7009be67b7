import type { Deps } from "../../deps.js";
import type { Actor } from "../../domain/actor.js";
import { createApiKey } from "./create-api-key.js";
import { deactivateApiKey } from "./deactivate-api-key.js";
import { listApiKeys } from "./list-api-keys.js";

/** The API key use cases bound to deps. */
export function bindApiKeys(deps: Deps) {
  return {
    create: (actor: Actor, input: unknown) => createApiKey(deps, actor, input),
    list: (actor: Actor, query: unknown) => listApiKeys(deps, actor, query),
    deactivate: (actor: Actor, id: string) => deactivateApiKey(deps, actor, id),
  };
}

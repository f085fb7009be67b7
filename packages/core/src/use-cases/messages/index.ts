import type { Deps } from "../../deps.js";
import type { Actor } from "../../domain/actor.js";
import { listMessages } from "./list-messages.js";
import { sendMessage } from "./send-message.js";

/** The message use cases bound to deps. */
export function bindMessages(deps: Deps) {
  return {
    send: (actor: Actor, input: unknown) => sendMessage(deps, actor, input),
    list: (actor: Actor, query: unknown) => listMessages(deps, actor, query),
  };
}

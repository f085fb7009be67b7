import type { Deps } from "../../deps.js";
import { dispatchMail } from "./dispatch-mail.js";
import { queueResetRequests } from "./reset-requests.js";

/** The mail use cases bound to deps. */
export function bindMail(deps: Deps) {
  return {
    /** Queues the reset requests this process took since the last round, then sends what is due. */
    dispatchDue: async (options?: { batchSize?: number }) => {
      await queueResetRequests(deps);
      return dispatchMail(deps, options);
    },
  };
}

import type { Deps } from "../../deps.js";
import { dispatchMail } from "./dispatch-mail.js";

/** The mail use cases bound to deps. */
export function bindMail(deps: Deps) {
  return { dispatchDue: (options?: { batchSize?: number }) => dispatchMail(deps, options) };
}

import type { Deps } from "../../deps.js";
import { type DispatchOptions, type DispatchReport, dispatchMail } from "./dispatch-mail.js";
import { queueResetRequests } from "./reset-requests.js";

/**
 * One mail round: resolves the reset requests waiting in storage (noted by
 * any process, this one before a restart included), then sends what is due.
 * A service calls it on a timer (`startMailDispatcher` in @psm/adapter-mail does).
 */
export async function dispatchDue(
  deps: Pick<Deps, "repos" | "mailer" | "clock" | "ids" | "random" | "settings">,
  options?: DispatchOptions,
): Promise<DispatchReport> {
  await queueResetRequests(deps);
  return dispatchMail(deps, options);
}

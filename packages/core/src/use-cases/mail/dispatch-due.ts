import type { Deps } from "../../deps.js";
import { queueNotifications } from "../notifications/queue-notifications.js";
import { type DispatchOptions, type DispatchReport, dispatchMail } from "./dispatch-mail.js";
import { queueResetRequests } from "./reset-requests.js";

/**
 * One mail round: turns new events into notification mail, resolves the reset requests waiting in
 * storage (noted by any process, this one before a restart included), then sends what is due.
 * A service calls it on a timer (`startMailDispatcher` in @psm/adapter-mail does).
 */
export async function dispatchDue(
  deps: Pick<Deps, "repos" | "mailer" | "clock" | "ids" | "random" | "settings" | "urlSigner">,
  options?: DispatchOptions,
): Promise<DispatchReport> {
  await queueNotifications(deps);
  await queueResetRequests(deps);
  return dispatchMail(deps, options);
}

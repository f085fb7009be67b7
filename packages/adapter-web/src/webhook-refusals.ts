import { isMarketplaceError, MAX_WEBHOOKS_PER_USER } from "@psm/core";
import { type FieldErrors, fieldErrorsOf } from "./forms.js";
import { WEBHOOK_FIELDS } from "./webhook-form.js";

/**
 * Said beside the URL whatever the transport's reason: a person needs to know which addresses are
 * refused, not how the check went (the reason can name an address the URL's host resolved to).
 */
export const FORBIDDEN_URL =
  "URL may not receive webhooks: private, loopback, link-local and metadata addresses (such as 127.0.0.1, " +
  "192.168.1.10 or 169.254.169.254) are not allowed. Use a public http or https address whose host resolves.";

/** The key of the limit's refusal: about the whole form, so the summary links to its heading. */
export const LIMIT_FIELD = "limit";

const LIMIT_REACHED = `You already have ${MAX_WEBHOOKS_PER_USER} webhooks, the most you may have: delete one to create another`;

/** A create or edit form's refusal by core, beside its fields; null for what goes to the error page. */
export function webhookRefusal(error: unknown): FieldErrors | null {
  if (isMarketplaceError(error, "webhook_url_forbidden")) return { url: FORBIDDEN_URL };
  if (isMarketplaceError(error, "webhook_limit_reached")) return { [LIMIT_FIELD]: LIMIT_REACHED };
  return fieldErrorsOf(error, WEBHOOK_FIELDS);
}

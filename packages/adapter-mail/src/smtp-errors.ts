import { MailDeliveryError } from "@psm/core";

/** The fields nodemailer puts on the errors it hands out; all optional. */
interface SmtpFailure {
  code?: unknown;
  responseCode?: unknown;
  message?: unknown;
}

// Failures of our own configuration (credentials, TLS) rather than of the mail:
// an operator can fix them while the dispatcher keeps retrying, so they are transient.
const CONFIGURATION_CODES: ReadonlySet<string> = new Set(["EAUTH", "ENOAUTH", "ETLS", "EREQUIRETLS"]);

function isPermanent(code: string | undefined, responseCode: number | undefined): boolean {
  if (code !== undefined && CONFIGURATION_CODES.has(code)) return false;
  if (responseCode !== undefined) {
    // RFC 5321: 5yz replies are permanent, 4yz transient. 503 (bad sequence of
    // commands) describes the session, not the mail, so a new attempt can pass.
    return responseCode >= 500 && responseCode < 600 && responseCode !== 503;
  }
  // An envelope refused before any reply (a malformed address) fails the same way every time.
  return code === "EENVELOPE";
}

/** Maps a nodemailer SMTP error to a MailDeliveryError; `server` is `host:port`, never the URL. */
export function toDeliveryError(error: unknown, server: string): MailDeliveryError {
  const failure: SmtpFailure = typeof error === "object" && error !== null ? error : {};
  const code = typeof failure.code === "string" ? failure.code : undefined;
  const responseCode = typeof failure.responseCode === "number" ? failure.responseCode : undefined;
  // EABORT is our own signal firing: the whole exchange outlasted its time bound.
  const detail =
    code === "EABORT"
      ? "no complete answer in time"
      : typeof failure.message === "string"
        ? failure.message
        : String(error);
  const permanent = isPermanent(code, responseCode);
  const label = code === "EABORT" ? "ETIMEDOUT" : (code ?? "error");
  return new MailDeliveryError(`SMTP delivery via ${server} failed (${label}): ${detail}`, {
    permanent,
    cause: error,
  });
}

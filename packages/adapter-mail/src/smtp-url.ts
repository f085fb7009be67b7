/** Where and how to reach an SMTP server, as read from an `smtp://` or `smtps://` URL. */
export interface SmtpTarget {
  host: string;
  port: number;
  /** TLS from the first byte (smtps://); otherwise STARTTLS is used when the server offers it. */
  secure: boolean;
  auth: { user: string; pass: string } | undefined;
}

function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    // The message must not quote the part: it may be the password.
    throw new Error("SMTP URL has a malformed percent-encoding in its user or password");
  }
}

/**
 * Reads `smtp://user:pass@host:port` or `smtps://...`; user and password are URL-decoded.
 * Throws a plain Error naming the problem but never echoing the URL, which holds the password.
 */
export function parseSmtpUrl(value: string): SmtpTarget {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    // Node's own error carries the input, credentials included; this one does not.
    throw new Error("SMTP URL is not a valid URL (expected smtp://user:pass@host:port or smtps://...)");
  }
  if (url.protocol !== "smtp:" && url.protocol !== "smtps:") {
    throw new Error(`SMTP URL scheme ${url.protocol} is not supported: use smtp:// or smtps://`);
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (host === "") throw new Error("SMTP URL has no host");
  const secure = url.protocol === "smtps:";
  const user = decode(url.username);
  const pass = decode(url.password);
  return {
    host,
    // 587 (submission, STARTTLS) and 465 (implicit TLS) are the ports for mail a program sends.
    port: url.port === "" ? (secure ? 465 : 587) : Number(url.port),
    secure,
    auth: user === "" && pass === "" ? undefined : { user, pass },
  };
}

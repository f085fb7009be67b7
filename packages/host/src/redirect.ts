/** The longest `next` considered; anything longer is not a path this site sent. */
export const MAX_REDIRECT_LENGTH = 2048;

// Resolving against an origin nobody owns (RFC 6761 `.invalid`) tells a path of
// this site from anything a browser would take elsewhere.
const DUMMY_ORIGIN = "http://host.invalid";

/**
 * Holds a C0 control, a space or DEL: browsers strip tab, LF and CR anywhere in
 * a URL and the rest at its ends, so `/\t/evil.example` becomes `//evil.example`.
 */
function hasStrippable(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code <= 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** Starts with one slash, not `//` or `/\` (a browser reads both as another host). */
function isRootRelative(path: string): boolean {
  return path.startsWith("/") && path[1] !== "/" && path[1] !== "\\";
}

/**
 * Where to send a browser back to (`?next=` after logging in): a path of this
 * site, normalised as a browser would resolve it (`pathname + search + hash`),
 * or `fallback` for anything that could land elsewhere: an absolute URL, `//`
 * or `/\`, a backslash, control characters or whitespace, dot segments that
 * collapse to `//`, or more than {@link MAX_REDIRECT_LENGTH} characters.
 */
export function safeRedirectPath(next: string | undefined, fallback = "/"): string {
  if (next === undefined || next.length > MAX_REDIRECT_LENGTH) return fallback;
  if (!isRootRelative(next) || next.includes("\\") || hasStrippable(next)) return fallback;
  let resolved: URL;
  try {
    resolved = new URL(next, DUMMY_ORIGIN);
  } catch {
    return fallback;
  }
  if (resolved.origin !== DUMMY_ORIGIN) return fallback;
  const path = resolved.pathname + resolved.search + resolved.hash;
  // `/.//evil` normalises to `//evil`: check what the browser will be given, too.
  return isRootRelative(path) ? path : fallback;
}

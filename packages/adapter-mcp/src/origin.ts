/**
 * The origins a browser may call /mcp from: the server's own (PUBLIC_URL) and
 * those CORS_ORIGINS lists. A wildcard CORS_ORIGINS opens the JSON API, not
 * this: the MCP transport must validate Origin (DNS rebinding), and a page
 * that rebinds a name to a local server would pass any wildcard.
 */
export function allowedOrigins(publicUrl: string, corsOrigins: readonly string[] | "*"): string[] {
  const own = new URL(publicUrl).origin;
  return [own, ...(corsOrigins === "*" ? [] : corsOrigins.filter((origin) => origin !== own))];
}

/** Whether a request's Origin header may reach /mcp: absent (not a browser) or one of `allowed`. */
export function isAllowedOrigin(origin: string | undefined, allowed: readonly string[]): boolean {
  if (origin === undefined) return true;
  // Browsers send an origin as scheme://host[:port]; compare in URL's normal form.
  const normal = URL.canParse(origin) ? new URL(origin).origin : origin;
  return allowed.includes(normal);
}

import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { CookieOptions } from "hono/utils/cookie";
import type { Flash } from "./env.js";
import type { WebConfig } from "./options.js";

/** The cookies of the site; over https each carries `__Host-` (Secure, whole site, no Domain). */
type CookieKind = "session" | "csrf" | "flash";

const BASE_NAMES: Record<CookieKind, string> = {
  session: "psm_session",
  csrf: "psm_csrf",
  flash: "psm_flash",
};

/** The cookie's name under this configuration. */
export function cookieName(config: Pick<WebConfig, "secure">, kind: CookieKind): string {
  return config.secure ? `__Host-${BASE_NAMES[kind]}` : BASE_NAMES[kind];
}

/** HttpOnly and SameSite=Lax always: no script reads them and no cross-site POST carries them. */
function options(config: Pick<WebConfig, "secure">, extra: CookieOptions = {}): CookieOptions {
  return { path: "/", httpOnly: true, sameSite: "Lax", secure: config.secure, ...extra };
}

/** Reads a cookie of the site. */
export function readCookie(
  c: Context,
  config: Pick<WebConfig, "secure">,
  kind: CookieKind,
): string | undefined {
  return getCookie(c, cookieName(config, kind));
}

/** Sets a cookie of the site; without `expires` or `maxAge` it lasts as long as the browser runs. */
export function writeCookie(
  c: Context,
  config: Pick<WebConfig, "secure">,
  kind: CookieKind,
  value: string,
  extra: CookieOptions = {},
): void {
  setCookie(c, cookieName(config, kind), value, options(config, extra));
}

/** Removes a cookie of the site. */
export function clearCookie(c: Context, config: Pick<WebConfig, "secure">, kind: CookieKind): void {
  deleteCookie(c, cookieName(config, kind), options(config));
}

// A notice outlives one redirect, no more.
const FLASH_SECONDS = 120;
const MAX_FLASH_TEXT = 500;

/** Leaves a message for the next page the browser shows (Post/Redirect/Get). */
export function setFlash(c: Context, config: Pick<WebConfig, "secure">, flash: Flash): void {
  const value = Buffer.from(JSON.stringify(flash), "utf8").toString("base64url");
  writeCookie(c, config, "flash", value, { maxAge: FLASH_SECONDS });
}

/** The message left by the last write, removed as it is read; anything malformed is ignored. */
export function takeFlash(c: Context, config: Pick<WebConfig, "secure">): Flash | undefined {
  const raw = readCookie(c, config, "flash");
  if (raw === undefined) return undefined;
  clearCookie(c, config, "flash");
  try {
    const parsed: unknown = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
    if (typeof parsed !== "object" || parsed === null) return undefined;
    const { tone, text } = parsed as Record<string, unknown>;
    if ((tone !== "ok" && tone !== "error") || typeof text !== "string") return undefined;
    return { tone, text: text.slice(0, MAX_FLASH_TEXT) };
  } catch {
    return undefined;
  }
}

import type { Settings } from "../../deps.js";
import { OAuthError } from "../../domain/oauth-error.js";

/** The OAuth settings, or `invalid_request` when the marketplace runs without an authorization server. */
export function oauthSettings(settings: Settings): NonNullable<Settings["oauth"]> {
  if (!settings.oauth)
    throw new OAuthError("invalid_request", "This server has no authorization server (OAUTH=off)");
  return settings.oauth;
}

/**
 * What a credential may do beyond public reads (decisions.md 1.3.0 "API keys"). A credential with
 * no scopes (an API key made without them, as every 1.0.2 key, a JWT, a browser session) may do
 * everything its user may; one with scopes only what they name. `admin` carries an admin's rights
 * outside the password-only /api/admin routes; only an admin may grant it.
 */
export const SCOPES = [
  "listings:write",
  "messages:read",
  "messages:write",
  "documents:parse",
  "events:read",
  "webhooks:manage",
  "saved_searches:manage",
  "account:write",
  "admin",
] as const;

export type Scope = (typeof SCOPES)[number];

/** What each scope allows, for the key form, OpenAPI and the capabilities document. */
export const SCOPE_DESCRIPTIONS: Readonly<Record<Scope, string>> = {
  "listings:write": "Create, edit and delete your listings",
  "messages:read": "Read the messages you sent and received",
  "messages:write": "Send messages",
  "documents:parse": "Turn a document into a draft listing",
  "events:read": "Read the event feed of your listings, messages and saved searches",
  "webhooks:manage": "Create, change and delete webhooks",
  "saved_searches:manage": "Create and delete saved searches",
  "account:write": "Change your account: profile, API keys, notification settings",
  admin: "An admin's rights outside /api/admin (admins only)",
};

/** Whether `value` names a scope. */
export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** The scopes a user may hold: all of them, `admin` only for an admin. */
export function grantableScopes(isAdmin: boolean): Scope[] {
  return SCOPES.filter((scope) => scope !== "admin" || isAdmin);
}

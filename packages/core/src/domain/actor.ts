import { grantableScopes, type Scope } from "./scopes.js";
import type { User } from "./user.js";

/** How a caller proved who it is: a JWT, an API key, a browser session (the web pages), or an OAuth access token. */
export type CredentialKind = "jwt" | "api_key" | "session" | "oauth";

/** Who is calling a use case. */
export type Actor =
  | { readonly kind: "anonymous" }
  | {
      readonly kind: "user";
      readonly user: User;
      readonly via: CredentialKind;
      /** The API key presented, when the caller used one. */
      readonly keyId?: string;
      /** The OAuth grant whose access token was presented. */
      readonly grantId?: string;
      /** What the credential is limited to; absent, it may do all its user may (domain/scopes.ts). */
      readonly scopes?: readonly Scope[];
      /** When the presented key stops working, if it does. */
      readonly expiresAt?: Date;
    };

export type UserActor = Extract<Actor, { kind: "user" }>;

export const ANONYMOUS: Actor = Object.freeze({ kind: "anonymous" });

/** Whether the actor acts with an admin's rights: an admin whose credential is not limited to scopes without `admin`. */
export function isAdmin(actor: Actor): boolean {
  return (
    actor.kind === "user" &&
    actor.user.isAdmin &&
    (actor.scopes === undefined || actor.scopes.includes("admin"))
  );
}

/** Whether the actor is `userId` or acts as an admin. */
export function isSelfOrAdmin(actor: Actor, userId: string): boolean {
  return actor.kind === "user" && (actor.user.id === userId || isAdmin(actor));
}

/** Whether the actor's credential allows `scope` (a credential without scopes allows all). */
export function hasScope(actor: Actor, scope: Scope): boolean {
  if (actor.kind !== "user") return false;
  return actor.scopes === undefined || actor.scopes.includes(scope);
}

/** The scopes the actor's credential holds, every grantable one when it is unrestricted. */
export function scopesOf(actor: UserActor): readonly Scope[] {
  return actor.scopes ?? grantableScopes(actor.user.isAdmin);
}

/** Whether the caller signed in with a password (a JWT or a page session), not a key or an OAuth token. */
export function signedInWithPassword(actor: Actor): boolean {
  return actor.kind === "user" && (actor.via === "jwt" || actor.via === "session");
}

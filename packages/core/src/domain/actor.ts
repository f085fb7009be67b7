import type { User } from "./user.js";

/** How a caller proved who it is: a JWT, an API key, or a browser session (the web pages). */
export type CredentialKind = "jwt" | "api_key" | "session";

/** Who is calling a use case. */
export type Actor =
  | { readonly kind: "anonymous" }
  | { readonly kind: "user"; readonly user: User; readonly via: CredentialKind; readonly keyId?: string };

export type UserActor = Extract<Actor, { kind: "user" }>;

export const ANONYMOUS: Actor = Object.freeze({ kind: "anonymous" });

export function isAdmin(actor: Actor): boolean {
  return actor.kind === "user" && actor.user.isAdmin;
}

/** Whether the actor is `userId` or an admin. */
export function isSelfOrAdmin(actor: Actor, userId: string): boolean {
  return actor.kind === "user" && (actor.user.id === userId || actor.user.isAdmin);
}

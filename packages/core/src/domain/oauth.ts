import { sha256 } from "@noble/hashes/sha2.js";
import { utf8ToBytes } from "@noble/hashes/utils.js";
import { constantTimeEqual, toBase64Url } from "../support/crypto.js";
import type { Scope } from "./scopes.js";

/**
 * OAuth 2.1 with the marketplace as its own authorization server (decisions.md 1.3.0 "OAuth"):
 * the stored shapes and the pure rules of the protocol. Secrets (codes, refresh tokens) are kept
 * only as SHA-256 digests, as API keys are.
 */

/** A client registered by RFC 7591 dynamic registration: public (no secret), identified by its id. */
export interface OAuthClient {
  id: string;
  name: string;
  /** Exact redirect URIs; a loopback one matches any port (RFC 8252 section 7.3). */
  redirectUris: readonly string[];
  createdAt: Date;
}

/** What the user approved for one client: the root of its codes, refresh tokens and access tokens. */
export interface OAuthGrant {
  id: string;
  userId: string;
  clientId: string;
  /** The client's name when the user approved it, shown on the account page. */
  clientName: string;
  scopes: readonly Scope[];
  /** The resources (RFC 8707) its access tokens are for, as absolute URLs. */
  resources: readonly string[];
  /** The user's token version at approval: a password change ends the grant. */
  tokenVersion: number;
  createdAt: Date;
  /** When its current refresh token expires; each rotation moves it. */
  expiresAt: Date;
  revokedAt: Date | null;
}

/** An authorization code: single use, short-lived, bound to its client, redirect URI and PKCE challenge. */
export interface AuthorizationCode {
  /** SHA-256 hex of the code. */
  codeHash: string;
  /** The grant it becomes when exchanged (decided at approval, so a replay can revoke it). */
  grantId: string;
  userId: string;
  clientId: string;
  clientName: string;
  redirectUri: string;
  /** The S256 PKCE challenge. */
  codeChallenge: string;
  scopes: readonly Scope[];
  resources: readonly string[];
  tokenVersion: number;
  expiresAt: Date;
}

/** A refresh token as stored: its digest, its grant, and whether it has been used (rotation). */
export interface RefreshToken {
  tokenHash: string;
  grantId: string;
  expiresAt: Date;
  usedAt: Date | null;
}

/** An authorization code lives this long: the redirect and exchange take seconds. */
export const AUTHORIZATION_CODE_TTL_MS = 5 * 60_000;
/** Access tokens last one hour (decisions.md). */
export const ACCESS_TOKEN_TTL_SECONDS = 3600;
/** Refresh tokens last 30 days, renewed by each rotation (decisions.md). */
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60_000;
/** At most this many redirect URIs per client, each at most this long; names are bounded too. */
export const MAX_REDIRECT_URIS = 10;
export const MAX_REDIRECT_URI_LENGTH = 2048;
export const MAX_CLIENT_NAME_LENGTH = 100;
/** RFC 7636: a verifier is 43 to 128 characters of this alphabet. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
/** An S256 challenge is the base64url SHA-256 of the verifier: 43 characters. */
export const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/** Whether `verifier` hashes to `challenge` by PKCE S256 (RFC 7636 section 4.6), in constant time. */
export function pkceMatches(verifier: string, challenge: string): boolean {
  if (!VERIFIER.test(verifier)) return false;
  return constantTimeEqual(toBase64Url(sha256(utf8ToBytes(verifier))), challenge);
}

/**
 * Whether `presented` is one of `registered` exactly, or a loopback redirect (`http://127.0.0.1`,
 * `http://[::1]`, `http://localhost`) that differs from a registered one only in its port: native
 * apps listen on whatever port is free (RFC 8252 section 7.3).
 */
export function redirectUriAllowed(registered: readonly string[], presented: string): boolean {
  if (registered.includes(presented)) return true;
  const wanted = loopbackWithoutPort(presented);
  return wanted !== null && registered.some((uri) => loopbackWithoutPort(uri) === wanted);
}

/** A loopback http URI with its port removed, or null for any other URI. */
function loopbackWithoutPort(uri: string): string | null {
  const url = URL.parse(uri);
  if (url?.protocol !== "http:") return null;
  if (!["127.0.0.1", "[::1]", "localhost"].includes(url.hostname)) return null;
  url.port = "";
  return url.href;
}

/**
 * Whether `uri` may be registered as a redirect: an absolute URI without a fragment, https, or http
 * on a loopback host, or a private-use scheme of a native app (`com.example.app:/callback`, RFC
 * 8252 section 7.1). `javascript:`, `data:` and the like never.
 */
export function isRegistrableRedirectUri(uri: string): boolean {
  if (uri.length > MAX_REDIRECT_URI_LENGTH) return false;
  const url = URL.parse(uri);
  if (url?.hash !== "" || url.username !== "" || url.password !== "") return false;
  if (url.protocol === "https:") return true;
  if (url.protocol === "http:") return loopbackWithoutPort(uri) !== null;
  return /^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+:$/.test(url.protocol) && !FORBIDDEN_SCHEMES.has(url.protocol);
}

const FORBIDDEN_SCHEMES = new Set(["javascript:", "data:", "file:", "vbscript:", "blob:"]);

/** Whether a grant still works at `now` for a user at `tokenVersion`. */
export function grantIsLive(grant: OAuthGrant, now: Date, tokenVersion: number): boolean {
  return (
    grant.revokedAt === null &&
    grant.expiresAt.getTime() > now.getTime() &&
    grant.tokenVersion === tokenVersion
  );
}

/** The client_id of a Client ID Metadata Document: an https URL with a path (the MCP specification). */
export function isMetadataDocumentClientId(clientId: string): boolean {
  return /^https?:\/\//i.test(clientId);
}

/**
 * `uri` with `params` added to its query (those undefined left out): the authorization response
 * (RFC 6749 section 4.1.2, with `iss` of RFC 9207) and its error form.
 */
export function withQuery(uri: string, params: Readonly<Record<string, string | undefined>>): string {
  const url = new URL(uri);
  for (const [name, value] of Object.entries(params))
    if (value !== undefined) url.searchParams.append(name, value);
  return url.href;
}

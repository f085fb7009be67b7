import type { Scope } from "@psm/core";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./schema.js";

/** The tables of OAuth 2.1 (decisions.md 1.3.0 "OAuth"): clients, codes, grants, refresh tokens. */

/** Clients registered dynamically (RFC 7591); metadata-document clients are fetched, not stored. */
export const oauthClients = sqliteTable("oauth_clients", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  redirectUris: text("redirect_uris", { mode: "json" }).notNull().$type<readonly string[]>(),
  createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
});

/** Grants: what a user approved for a client. Revocation sets revoked_at; the row stays until it expires. */
export const oauthGrants = sqliteTable(
  "oauth_grants",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    clientId: text("client_id").notNull(),
    clientName: text("client_name").notNull(),
    scopes: text("scopes", { mode: "json" }).notNull().$type<readonly Scope[]>(),
    resources: text("resources", { mode: "json" }).notNull().$type<readonly string[]>(),
    tokenVersion: integer("token_version").notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    revokedAt: integer("revoked_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    index("oauth_grants_user_id_idx").on(t.userId),
    index("oauth_grants_expires_at_idx").on(t.expiresAt),
  ],
);

/** Authorization codes by digest; `used` turns true at the one exchange. */
export const oauthCodes = sqliteTable(
  "oauth_codes",
  {
    codeHash: text("code_hash").primaryKey(),
    grantId: text("grant_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    clientId: text("client_id").notNull(),
    clientName: text("client_name").notNull(),
    redirectUri: text("redirect_uri").notNull(),
    codeChallenge: text("code_challenge").notNull(),
    scopes: text("scopes", { mode: "json" }).notNull().$type<readonly Scope[]>(),
    resources: text("resources", { mode: "json" }).notNull().$type<readonly string[]>(),
    tokenVersion: integer("token_version").notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    used: integer("used", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [index("oauth_codes_expires_at_idx").on(t.expiresAt), index("oauth_codes_user_id_idx").on(t.userId)],
);

/** Refresh tokens by digest; used_at is set by the rotation that replaces one. */
export const oauthRefreshTokens = sqliteTable(
  "oauth_refresh_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    grantId: text("grant_id")
      .notNull()
      .references(() => oauthGrants.id, { onDelete: "cascade" }),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    usedAt: integer("used_at", { mode: "timestamp_ms" }),
  },
  (t) => [index("oauth_refresh_tokens_grant_id_idx").on(t.grantId)],
);

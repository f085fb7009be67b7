import type { Scope } from "@psm/core";
import { boolean, index, integer, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { instant, users } from "./schema.js";

/** The tables of OAuth 2.1 (decisions.md 1.3.0 "OAuth"): clients, codes, grants, refresh tokens. */

/** Clients registered dynamically (RFC 7591); metadata-document clients are fetched, not stored. */
export const oauthClients = pgTable("oauth_clients", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  redirectUris: jsonb("redirect_uris").notNull().$type<readonly string[]>(),
  createdAt: instant("created_at").notNull(),
});

/** Grants: what a user approved for a client. Revocation sets revoked_at; the row stays until it expires. */
export const oauthGrants = pgTable(
  "oauth_grants",
  {
    id: uuid("id").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    clientId: text("client_id").notNull(),
    clientName: text("client_name").notNull(),
    scopes: text("scopes").array().notNull().$type<readonly Scope[]>(),
    resources: text("resources").array().notNull().$type<readonly string[]>(),
    tokenVersion: integer("token_version").notNull(),
    createdAt: instant("created_at").notNull(),
    expiresAt: instant("expires_at").notNull(),
    revokedAt: instant("revoked_at"),
  },
  (t) => [
    index("oauth_grants_user_id_idx").on(t.userId),
    index("oauth_grants_expires_at_idx").on(t.expiresAt),
  ],
);

/** Authorization codes by digest; `used` turns true at the one exchange. */
export const oauthCodes = pgTable(
  "oauth_codes",
  {
    codeHash: text("code_hash").primaryKey(),
    grantId: uuid("grant_id").notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    clientId: text("client_id").notNull(),
    clientName: text("client_name").notNull(),
    redirectUri: text("redirect_uri").notNull(),
    codeChallenge: text("code_challenge").notNull(),
    scopes: text("scopes").array().notNull().$type<readonly Scope[]>(),
    resources: text("resources").array().notNull().$type<readonly string[]>(),
    tokenVersion: integer("token_version").notNull(),
    expiresAt: instant("expires_at").notNull(),
    used: boolean("used").notNull().default(false),
  },
  (t) => [index("oauth_codes_expires_at_idx").on(t.expiresAt), index("oauth_codes_user_id_idx").on(t.userId)],
);

/** Refresh tokens by digest; used_at is set by the rotation that replaces one. */
export const oauthRefreshTokens = pgTable(
  "oauth_refresh_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    grantId: uuid("grant_id")
      .notNull()
      .references(() => oauthGrants.id, { onDelete: "cascade" }),
    expiresAt: instant("expires_at").notNull(),
    usedAt: instant("used_at"),
  },
  (t) => [index("oauth_refresh_tokens_grant_id_idx").on(t.grantId)],
);

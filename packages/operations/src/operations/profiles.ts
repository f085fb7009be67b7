import { pageQuerySchema, syncProfileSchema, userIdSchema } from "@psm/core";
import { defineOperation, legacyPublic } from "../operation.js";
import { presentLimit, presentProfile } from "../presenters.js";
import {
  AdminCheckAnswer,
  ListingLimitSchema,
  ProfileAnswer,
  ProfileSchema,
  pageOf,
} from "../wire-schemas.js";
import { ACCOUNT_FIELDS, PAGE_QUERY } from "./descriptions.js";

const tag = "profiles";
const userQuery = { schema: userIdSchema, from: "query", describe: ACCOUNT_FIELDS } as const;

/** /api/profiles: list, sync, admin check, listing limit. */
export const profileOperations = [
  defineOperation({
    name: "list_profiles",
    etag: true,
    method: "GET",
    path: "/api/profiles",
    auth: "public",
    rate: "read",
    private: "identified",
    tag,
    summary: "List profiles",
    description: "All profiles; emails only to their owner and admins.",
    input: { schema: pageQuerySchema, from: "query", describe: PAGE_QUERY },
    ok: { status: 200, schema: pageOf("profiles", ProfileSchema) },
    handle: async ({ m, actor, command }) => {
      const page = await m.profiles.list(actor, command);
      return {
        profiles: page.items.map(presentProfile),
        count: page.items.length,
        next_cursor: page.nextCursor,
      };
    },
  }),
  defineOperation({
    name: "sync_profile",
    method: "POST",
    path: "/api/profiles/sync",
    auth: legacyPublic("key-or-jwt"),
    scope: "account:write",
    rate: "write",
    private: "identified",
    tag,
    summary: "Create or update a profile",
    description: "Create or update a profile.",
    input: {
      schema: syncProfileSchema,
      from: "body",
      ref: "SyncProfile",
      describe: ACCOUNT_FIELDS,
      example: {
        id: "0190a3b4-5c6d-7e8f-9012-3456789abcde",
        email: "ada@example.com",
        display_name: "Ada",
      },
    },
    ok: { status: 200, schema: ProfileAnswer },
    errors: [403],
    handle: async ({ m, actor, command }) => ({
      success: true,
      profile: presentProfile(await m.profiles.sync(actor, command)),
    }),
  }),
  defineOperation({
    name: "admin_check",
    method: "GET",
    path: "/api/profiles/admin",
    auth: "public",
    rate: "read",
    private: "identified",
    tag,
    summary: "Whether a user is an admin",
    description: "Whether a user is an admin.",
    input: userQuery,
    ok: { status: 200, schema: AdminCheckAnswer },
    handle: async ({ m, command }) => ({ is_admin: await m.profiles.isAdmin(command) }),
  }),
  defineOperation({
    name: "get_listing_limit",
    tool: 11,
    useWhen: "before create_listing, or to tell the user why publishing failed with listing_limit_reached",
    method: "GET",
    path: "/api/profiles/limit",
    auth: "public",
    rate: "read",
    private: "identified",
    tag,
    summary: "A user's listing slots",
    description: "A user's listing slots.",
    input: userQuery,
    ok: { status: 200, schema: ListingLimitSchema },
    errors: [404],
    handle: async ({ m, command }) => presentLimit(await m.profiles.getLimit(command)),
  }),
  defineOperation({
    name: "listing_limit_compat",
    method: "POST",
    path: "/api/profiles/limit",
    auth: legacyPublic("key-or-jwt"),
    rate: "write",
    private: "identified",
    tag,
    summary: "A user's listing slots (compatibility POST; moves nothing)",
    description: "Same answer as the GET; moves nothing.",
    input: {
      schema: userIdSchema,
      from: "body",
      ref: "UserId",
      describe: ACCOUNT_FIELDS,
      example: { user_id: "0190a3b4-5c6d-7e8f-9012-3456789abcde" },
    },
    ok: { status: 200, schema: ListingLimitSchema },
    errors: [403, 404],
    handle: async ({ m, actor, command }) => presentLimit(await m.profiles.postLimit(actor, command)),
  }),
];

import { adminDeletePostSchema, adminDeleteUserSchema, pageQuerySchema } from "@psm/core";
import { defineOperation } from "../operation.js";
import { presentListing, presentUser } from "../presenters.js";
import { ListingSchema, pageOf, SuccessSchema, UserSchema } from "../wire-schemas.js";
import { ACCOUNT_FIELDS, PAGE_QUERY } from "./descriptions.js";

const tag = "admin";
const deleted = { status: 200, schema: SuccessSchema } as const;
const paged = { schema: pageQuerySchema, from: "query", describe: PAGE_QUERY } as const;
const uuidExample = "0190a3b4-5c6d-7e8f-9012-3456789abcde";

// The body and the path form of each delete run the same use case.
// What every admin deletion shares: who may call it, its class, and its answers.
const adminDeletion = {
  auth: "admin",
  scope: "admin",
  rate: "write",
  private: "always",
  tag,
  ok: deleted,
  errors: [403, 404],
} satisfies Partial<Parameters<typeof defineOperation>[0]>;
const deletePost = {
  ...adminDeletion,
  handle: async ({ m, actor, command }) => {
    await m.admin.deletePost(actor, command);
    return { success: true };
  },
} satisfies Partial<Parameters<typeof defineOperation<typeof adminDeletePostSchema, "postId">>[0]>;
const deleteUser = {
  ...adminDeletion,
  handle: async ({ m, actor, command }) => {
    await m.admin.deleteUser(actor, command);
    return { success: true };
  },
} satisfies Partial<Parameters<typeof defineOperation<typeof adminDeleteUserSchema, "userId">>[0]>;

/** /api/admin: every listing and user, and their deletion (admin JWT only). */
export const adminOperations = [
  defineOperation({
    name: "admin_list_posts",
    tool: 13,
    useWhen: "as an admin reviewing listings of every status, including paused and expired ones",
    method: "GET",
    path: "/api/admin/posts",
    auth: "admin",
    scope: "admin",
    rate: "read",
    private: "always",
    tag,
    summary: "All listings, any status",
    description: "All listings of any status.",
    input: paged,
    ok: { status: 200, schema: pageOf("posts", ListingSchema) },
    errors: [403],
    handle: async ({ m, actor, command }) => {
      const page = await m.admin.listPosts(actor, command);
      const now = m.now();
      const posts = page.items.map((listing) => presentListing(listing, now));
      return { posts, count: posts.length, next_cursor: page.nextCursor };
    },
  }),
  defineOperation({
    ...deletePost,
    name: "admin_delete_post",
    tool: 15,
    useWhen: "as an admin removing a listing that breaks the rules",
    method: "DELETE",
    path: "/api/admin/posts",
    summary: "Delete a listing (body)",
    description: "Delete a listing by body post_id.",
    input: {
      schema: adminDeletePostSchema,
      from: "body",
      ref: "AdminDeletePost",
      describe: ACCOUNT_FIELDS,
      example: { post_id: uuidExample },
    },
  }),
  defineOperation({
    ...deletePost,
    name: "admin_delete_post_by_id",
    method: "DELETE",
    path: "/api/admin/posts/{id}",
    summary: "Delete a listing",
    description: "Delete a listing.",
    input: { path: { postId: "id" } },
  }),
  defineOperation({
    name: "admin_list_users",
    tool: 14,
    useWhen: "as an admin looking for an account",
    method: "GET",
    path: "/api/admin/users",
    auth: "admin",
    scope: "admin",
    rate: "read",
    private: "always",
    tag,
    summary: "All users",
    description: "All users.",
    input: paged,
    ok: { status: 200, schema: pageOf("users", UserSchema) },
    errors: [403],
    handle: async ({ m, actor, command }) => {
      const page = await m.admin.listUsers(actor, command);
      return { users: page.items.map(presentUser), count: page.items.length, next_cursor: page.nextCursor };
    },
  }),
  defineOperation({
    ...deleteUser,
    name: "admin_delete_user",
    tool: 16,
    useWhen: "as an admin closing an account for good, with its listings and keys",
    method: "DELETE",
    path: "/api/admin/users",
    summary: "Delete a user (body)",
    description: "Delete a user by body user_id, with listings and keys.",
    input: {
      schema: adminDeleteUserSchema,
      from: "body",
      ref: "AdminDeleteUser",
      describe: ACCOUNT_FIELDS,
      example: { user_id: uuidExample },
    },
  }),
  defineOperation({
    ...deleteUser,
    name: "admin_delete_user_by_id",
    method: "DELETE",
    path: "/api/admin/users/{id}",
    summary: "Delete a user",
    description: "Delete a user, with listings and keys.",
    input: { path: { userId: "id" } },
  }),
];

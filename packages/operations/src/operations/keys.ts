import { createApiKeySchema, isAdmin, pageQuerySchema } from "@psm/core";
import { defineOperation } from "../operation.js";
import { presentApiKey, presentCreatedApiKey } from "../presenters.js";
import { ApiKeySchema, CreatedApiKeyAnswer, pageOf, SuccessSchema } from "../wire-schemas.js";
import { ACCOUNT_FIELDS, PAGE_QUERY } from "./descriptions.js";

const tag = "keys";

/**
 * Said to an admin who creates a key: 1.0.2 has a key grant its user's
 * permissions, so an admin's key is an admin everywhere but /api/admin.
 */
export const ADMIN_KEY_WARNING =
  "This key carries your admin rights outside /api/admin: whoever holds it can delete any listing " +
  "and read any user's messages. Keep it as you keep your password, and deactivate it when unused.";

/** /api/keys: list, create (value shown once), deactivate. */
export const keyOperations = [
  defineOperation({
    name: "list_api_keys",
    tool: 12,
    method: "GET",
    path: "/api/keys",
    auth: "key-or-jwt",
    rate: "read",
    private: "always",
    tag,
    summary: "List API keys",
    description: "The caller's keys (all keys for an admin).",
    input: { schema: pageQuerySchema, from: "query", describe: PAGE_QUERY },
    ok: { status: 200, schema: pageOf("keys", ApiKeySchema) },
    handle: async ({ m, actor, command }) => {
      const page = await m.apiKeys.list(actor, command);
      return { keys: page.items.map(presentApiKey), count: page.items.length, next_cursor: page.nextCursor };
    },
  }),
  defineOperation({
    name: "create_api_key",
    method: "POST",
    path: "/api/keys",
    auth: "key-or-jwt",
    rate: "write",
    private: "always",
    tag,
    summary: "Create an API key",
    description:
      "Create a key; its value is shown once. A key carries its owner's rights: an admin's key acts as " +
      "admin outside /api/admin (which needs a JWT), and the answer warns an admin of it.",
    // The body is optional: an empty one takes the default name.
    input: {
      schema: createApiKeySchema,
      from: "body",
      ref: "CreateApiKey",
      required: false,
      describe: ACCOUNT_FIELDS,
      example: { name: "Pricing agent" },
    },
    ok: { status: 200, schema: CreatedApiKeyAnswer },
    handle: async ({ m, actor, command }) => {
      const key = presentCreatedApiKey(await m.apiKeys.create(actor, command));
      return isAdmin(actor) ? { key, warning: ADMIN_KEY_WARNING } : { key };
    },
  }),
  defineOperation({
    name: "deactivate_api_key",
    method: "DELETE",
    path: "/api/keys/{id}",
    auth: "key-or-jwt",
    rate: "write",
    private: "always",
    tag,
    summary: "Deactivate an API key",
    description: "Deactivate a key.",
    input: { path: { id: "id" } },
    ok: { status: 200, schema: SuccessSchema },
    errors: [404],
    handle: async ({ m, actor, command }) => {
      await m.apiKeys.deactivate(actor, command);
      return { success: true };
    },
  }),
];
